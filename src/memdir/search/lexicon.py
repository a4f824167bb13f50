"""Software-engineering concepts and the words each is written with, in English, German, Chinese, Japanese, Korean.

A memory says "feature flag" and a prompt "toggle"; a memory written in Chinese says 部署 and the prompt "deploy".
The multilingual embedder's cosine bridges some of these and misses others (it reads "ticket" far from "bug
tracker"), and words alone bridge none. :data:`CONCEPTS` lists the ways the field names one thing: each entry a
concept, each of its forms a word or phrase meaning it (synonyms, abbreviations, translations), so that a prompt
naming a concept by one form and a memory naming it by another meet (:mod:`memdir.search.concepts`).

Written from general knowledge of the field (glossaries of version control, CI/CD, databases, web services,
operations, security and team process, and the usual translations of those terms), not from any store's or
evaluation's texts. A form is what a person writes; it is read as query terms by the search's own tokenizer
(stemmed Latin words, CJK bigrams), and a text holds a form when it holds every term of it. Forms are specific: a
word with many senses ("run", "issue", "flag", "toggle", "pipeline" or "page" alone) and a product that is one kind of
the thing (GitHub Actions for CI, Jira for a tracker, S3 for object storage) are left out, so a concept links what
means the same, not a topic's neighbours (a topic thesaurus, tried in evals/recall/thesaurus.py, lifted wrong memories of a
topic as much as right ones).
"""

from __future__ import annotations

# One concept a tuple of forms; a form a word or phrase as people write it.
CONCEPTS: tuple[tuple[str, ...], ...] = (
    # --- shipping and environments
    ("deploy", "deployment", "rollout", "go live", "push live", "ship to production",
     "release to production", "ausrollen", "deployen", "bereitstellen", "bereitstellung", "部署", "上线",
     "デプロイ", "本番反映", "배포"),
    ("production", "prod", "produktion", "produktivsystem", "生产环境", "线上环境", "本番環境", "本番", "운영 환경",
     "프로덕션"),
    ("staging", "pre-production", "preprod", "staging environment", "预发布", "预发环境", "ステージング", "스테이징"),
    ("release", "new version", "publish a version", "version bump", "veröffentlichung", "发版", "版本发布",
     "リリース", "릴리스", "릴리즈"),
    ("git tag", "version tag", "release tag", "打标签", "タグ付け", "태그"),
    ("feature flag", "feature toggle", "behind a toggle", "dark launch", "kill switch", "feature-flag", "funktionsschalter",
     "功能开关", "特性开关", "功能标志", "機能フラグ", "フィーチャーフラグ", "기능 플래그", "피처 플래그"),
    ("hotfix", "patch release", "notfix", "热修复", "紧急修复", "ホットフィックス", "핫픽스"),
    ("rollback", "revert a deploy", "zurückrollen", "回滚", "ロールバック", "切り戻し", "롤백"),
    ("code freeze", "merge freeze", "release freeze", "deploy freeze", "封版", "代码冻结", "コードフリーズ",
     "코드 프리즈"),
    # --- version control and review
    ("pull request", "merge request", "PR", "拉取请求", "合并请求", "プルリクエスト", "プルリク", "풀 리퀘스트"),
    ("code review", "review", "reviewer", "überprüfung", "代码评审", "评审", "代码审查", "コードレビュー", "レビュー",
     "코드 리뷰", "리뷰"),
    ("approval", "approve", "sign-off", "genehmigung", "freigabe", "审批", "批准", "承認", "승인"),
    ("commit", "提交代码", "コミット", "커밋"),
    ("branch", "zweig", "分支", "ブランチ", "브랜치"),
    ("merge", "zusammenführen", "合并", "マージ", "병합", "머지"),
    ("refactor", "refactoring", "restructure", "umbau", "重构", "リファクタリング", "리팩터링", "리팩토링"),
    # --- issues and planning
    ("bug tracker", "issue tracker", "ticket", "bug report", "file a bug", "report a bug", "fehlerbericht",
     "工单", "缺陷跟踪", "提交问题", "问题单", "チケット", "バグ報告", "課題管理", "이슈 트래커", "이슈", "티켓",
     "버그 리포트"),
    ("bug", "defect", "fehler", "缺陷", "バグ", "不具合", "버그"),
    ("onboarding", "new hire", "new joiner", "new employee", "newcomer", "einarbeitung", "neue mitarbeiter",
     "入职", "新员工", "新人", "オンボーディング", "入社", "온보딩", "신규 입사자", "신입"),
    ("development environment", "dev environment", "dev setup", "dev machine", "entwicklungsumgebung", "开发环境",
     "開発環境", "개발 환경"),
    ("documentation", "docs", "readme", "dokumentation", "文档", "ドキュメント", "문서"),
    # --- CI and builds
    ("continuous integration", "CI", "CI pipeline", "build pipeline", "build server", "build agent", "runner",
     "ci-pipeline", "持续集成", "CI流水线", "构建机", "CIパイプライン", "ビルドサーバー", "CI 파이프라인", "빌드 서버"),
    ("build artifact", "artifact", "build output", "artefakt", "构建产物", "制品", "成果物", "アーティファクト",
     "아티팩트", "빌드 결과물"),
    ("mock", "stub", "fake", "模拟对象", "モック", "스텁"),
    ("flaky", "intermittent failure", "unstable test", "不稳定", "偶发失败", "不安定", "플래키"),
    # --- packages and tooling
    ("dependency", "package", "library", "third-party package", "abhängigkeit", "paket", "bibliothek", "依赖",
     "依赖包", "第三方库", "依存関係", "パッケージ", "ライブラリ", "의존성", "패키지", "라이브러리"),
    ("install", "installation", "installieren", "安装", "インストール", "설치"),
    ("package manager", "package installer", "paketmanager", "包管理器", "パッケージマネージャー", "패키지 매니저"),
    ("formatter", "formatting", "code style", "linter", "lint", "formatierung", "formatieren", "格式化",
     "代码风格", "フォーマッター", "整形", "コードスタイル", "포맷터", "포맷", "코드 스타일"),
    ("indentation", "indent", "reindent", "einrückung", "缩进", "インデント", "字下げ", "들여쓰기"),
    ("type hints", "type annotations", "typing", "typannotationen", "类型注解", "型ヒント", "타입 힌트"),
    ("environment variable", "env var", "dotenv", ".env", "umgebungsvariable", "环境变量", "環境変数", "환경 변수"),
    ("container", "容器", "コンテナ", "컨테이너"),
    ("kubernetes", "k8s"),
    # --- data
    ("database", "db", "datenbank", "数据库", "データベース", "데이터베이스"),
    ("postgres", "postgresql", "psql"),
    ("migration", "schema change", "schema migration", "datenbankmigration", "迁移", "数据库迁移",
     "マイグレーション", "마이그레이션"),
    ("timestamp", "datetime", "time zone", "timezone", "UTC", "zeitzone", "zeitstempel", "时区", "时间戳",
     "タイムゾーン", "タイムスタンプ", "시간대", "타임스탬프"),
    ("schema", "data model", "表结构", "スキーマ", "스키마"),
    ("cache", "caching", "缓存", "キャッシュ", "캐시"),
    ("expiry", "expiration", "TTL", "time to live", "expire", "ablauf", "过期", "过期时间", "有效期", "有効期限",
     "만료"),
    ("backup", "sicherung", "备份", "バックアップ", "백업"),
    ("restore", "wiederherstellen", "恢复", "復元", "복원"),
    ("object storage", "bucket", "blob storage", "objektspeicher", "对象存储", "存储桶", "オブジェクトストレージ",
     "バケット", "버킷", "오브젝트 스토리지"),
    ("upload", "hochladen", "上传", "アップロード", "업로드"),
    ("encoding", "charset", "utf-8", "zeichenkodierung", "编码", "文字コード", "인코딩"),
    # --- services
    ("port", "端口", "ポート", "포트"),
    ("connection string", "DSN", "database url", "verbindungszeichenfolge", "连接字符串", "连接串", "接続文字列",
     "연결 문자열"),
    ("webhook", "callback url", "回调", "ウェブフック", "웹훅"),
    ("rate limit", "throttling", "throttle", "quota", "ratenbegrenzung", "限流", "速率限制", "レート制限",
     "流量制限", "속도 제한", "레이트 리밋"),
    ("retry", "backoff", "exponential backoff", "wiederholen", "重试", "退避", "リトライ", "再試行",
     "指数バックオフ", "재시도", "백오프"),
    ("timeout", "time out", "zeitüberschreitung", "超时", "タイムアウト", "타임아웃"),
    ("batch job", "nightly job", "nightly batch", "scheduled job", "cron job", "stapelverarbeitung", "批处理", "定时任务",
     "夜间任务", "バッチ", "夜間バッチ", "定期実行", "배치", "배치 작업"),
    ("worker", "background job", "task queue", "queue", "warteschlange", "队列", "后台任务", "キュー", "ワーカー",
     "큐", "워커"),
    ("health check", "healthcheck", "liveness", "readiness", "健康检查", "ヘルスチェック", "헬스 체크"),
    ("VPN", "tunnel", "bastion", "隧道", "トンネル", "터널"),
    ("certificate", "TLS", "SSL", "HTTPS", "zertifikat", "证书", "証明書", "인증서"),
    ("domain", "DNS", "hostname", "域名", "ドメイン", "도메인"),
    # --- operations
    ("monitoring", "observability", "dashboard", "metrics", "überwachung", "监控", "仪表盘", "指标", "監視",
     "ダッシュボード", "メトリクス", "모니터링", "대시보드", "지표"),
    ("latency", "response time", "latenz", "antwortzeit", "延迟", "响应时间", "レイテンシ", "応答時間",
     "지연 시간", "응답 시간"),
    ("alert", "alerting", "on-call", "alarm", "告警", "报警", "アラート", "경보"),
    ("incident", "outage", "postmortem", "downtime", "störung", "ausfall", "故障", "宕机", "障害",
     "インシデント", "장애", "인시던트"),
    ("logging", "log", "logger", "log line", "protokoll", "protokollieren", "日志", "打日志", "记录日志", "ログ",
     "ロギング", "로그", "로깅"),
    ("out of memory", "OOM", "memory limit", "内存不足", "内存溢出", "メモリ不足", "메모리 부족"),
    # --- security and people's data
    # personal data and its kinds apart: a note on logging phone numbers is not one on email addresses
    ("personal data", "PII", "personally identifiable", "personal information", "personenbezogene daten",
     "个人信息", "敏感信息", "個人情報", "개인정보"),
    ("phone number", "telephone number", "mobile number", "telefonnummer", "handynummer", "手机号", "电话号码",
     "電話番号", "携帯番号", "전화번호", "휴대폰 번호"),
    ("email address", "e-mail address", "e-mail-adresse", "邮箱地址", "电子邮件地址", "メールアドレス", "이메일 주소"),
    ("ID number", "national ID", "identity number", "ausweisnummer", "身份证号", "身分証明書", "マイナンバー",
     "주민등록번호"),
    ("mask", "redact", "anonymize", "scrub", "maskieren", "schwärzen", "脱敏", "掩码", "マスキング", "伏せ字",
     "마스킹"),
    ("secret", "credential", "API key", "password", "passwort", "密钥", "密码", "凭证", "シークレット",
     "パスワード", "비밀번호", "시크릿"),
    ("login", "log in", "sign in", "authentication", "anmelden", "einloggen", "登录", "认证", "ログイン", "認証",
     "로그인", "인증"),
    ("log out", "logout", "sign out", "abmelden", "ausloggen", "登出", "退出登录", "ログアウト", "로그아웃"),
    ("session", "sitzung", "会话", "セッション", "세션"),
    ("sign up", "signup", "registration", "registrierung", "注册", "新規登録", "会員登録", "회원가입"),
    ("verification", "verify", "verifizierung", "验证", "検証", "검증"),
    ("permission", "access control", "berechtigung", "权限", "権限", "권한"),
    # --- product and UI
    ("payment", "billing", "checkout", "zahlung", "bezahlung", "支付", "付款", "決済", "支払い", "결제"),
    ("invoice", "rechnung", "发票", "請求書", "インボイス", "청구서", "인보이스"),
    ("refund", "rückerstattung", "退款", "返金", "환불"),
    ("translation", "i18n", "localization", "l10n", "übersetzung", "翻译", "国际化", "本地化", "翻訳", "多言語化",
     "国際化", "번역", "다국어", "현지화"),
    ("font", "typeface", "schriftart", "字体", "フォント", "폰트", "글꼴"),
    ("button", "schaltfläche", "按钮", "ボタン", "버튼"),
    ("notification", "notify", "benachrichtigung", "通知", "알림"),
    ("email", "e-mail", "mail", "邮件", "电子邮件", "メール", "이메일"),
    ("SMS", "text message", "短信", "ショートメッセージ", "문자 메시지"),
    ("concise", "terse", "brief", "short answers", "knapp", "简洁", "简短", "簡潔", "간결"),
    # --- days (schedules are written in any language)
    ("monday", "montag", "周一", "星期一", "月曜日", "월요일"),
    ("tuesday", "dienstag", "周二", "星期二", "火曜日", "화요일"),
    ("wednesday", "mittwoch", "周三", "星期三", "水曜日", "수요일"),
    ("thursday", "donnerstag", "周四", "星期四", "木曜日", "목요일"),
    ("friday", "freitag", "周五", "星期五", "金曜日", "금요일"),
    ("weekend", "wochenende", "周末", "週末", "주말"),
)

# A kind of tool and the products that are one of it, for an explicit search naming the kind (:func:`memdir.search.
# concepts.instances_met`): "package manager" is what "Use pnpm, never npm or yarn" is about, though it names only
# the product (search35). One way only, and never for recall: a product is no synonym of its kind, and two products
# of one kind are not each other (npm is no pnpm). Each entry: the kind's forms, then its products, as people write
# them. Kept to kinds whose products are rarely other words.
KINDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("package manager", "package installer", "paketmanager", "包管理器", "パッケージマネージャー", "패키지 매니저"),
     ("npm", "pnpm", "yarn", "pip", "pipx", "uv", "poetry", "pipenv", "conda", "cargo", "bundler", "homebrew",
      "nuget")),
    (("type checker", "type checking", "typechecker", "typecheck"), ("mypy", "pyright", "tsc")),
    (("on-call", "oncall"), ("pagerduty", "opsgenie", "victorops")),
)

# A task that needs a kind of tool without naming it (:func:`memdir.search.concepts.kinds_tasked`): "install the lodash
# package" is a job for the package manager, so a prompt's recall meets "Use pnpm for every JS install" as the typed
# search "package manager" does (hits37), and a typed search of the task too ("add a library dependency": misc46). Each entry: the first form of a kind of :data:`KINDS`, then the tasks, every
# word of one in the prompt (in any order). Only where the task's words say the kind is the tool: "install" alone is
# also an editor's extension or a CLI ("install the 1Password CLI"), "package" alone also what a release publishes.
TASKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("package manager", ("install package", "install dependency", "add package", "add dependency",
                         "installiere paket", "paket installieren", "paket abhängigkeit", "安装依赖", "添加依赖",
                         "项目 依赖", "依存関係 入れ", "依存関係 追加", "パッケージ インストール", "패키지 설치",
                         "의존성 추가")),
)

__all__ = ["CONCEPTS", "KINDS", "TASKS"]
