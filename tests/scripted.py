"""A fake extractor at the model seam, shared by the consolidation tests."""

from __future__ import annotations

from memdir.consolidation.proposals import ExtractionResult


class Scripted:
    """An extractor that proposes what the test says: ``Scripted(*proposals)``;
    ``extract`` returns them whatever the transcript."""

    name, model = "scripted", None

    def __init__(self, *proposals):
        self.proposals = list(proposals)

    def extract(self, transcript, context):
        return ExtractionResult(self.proposals)
