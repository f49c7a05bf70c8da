"""Shared by the renderer's golden cases (test_rendering_math.py and test_rendering_markdown.py): two formulas
from the seed decks, and the text a reader sees in rendered HTML.
"""

from __future__ import annotations

import re

AFFINE = (
    r"$q = \text{round}\left(\frac{r}{s}\right) + z$, where $r$ is the real value, $s$ is the scale, "
    r"$z$ is the zero-point, and $q$ is the quantized integer. Dequantization recovers $r \approx s\,(q - z)$."
)
SOFTMAX = r"Temperature softens the probability distribution: $p_i = \frac{\exp(z_i/T)}{\sum_j \exp(z_j/T)}$."


def _text(html: str) -> str:
    """What a reader sees, roughly: the HTML without tags, KaTeX's hidden MathML annotation removed."""
    html = re.sub(r"<annotation[^>]*>.*?</annotation>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", "", html)
