"""MathML -> LaTeX through pandoc (the Pap2Pat paper's conversion), on the real PMC article's MathML too."""
from __future__ import annotations

from lxml import etree

from sources.formulas import mathml_to_latex, mathml_to_latex_many

MML = "http://www.w3.org/1998/Math/MathML"


def test_plain_and_prefixed_mathml_convert():
    plain = "<math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>"
    prefixed = f'<mml:math xmlns:mml="{MML}"><mml:mfrac><mml:mi>a</mml:mi><mml:mi>b</mml:mi></mml:mfrac></mml:math>'
    assert mathml_to_latex_many([plain, prefixed]) == ["E = mc^{2}", "\\frac{a}{b}"]


def test_real_pmc_formulas_convert_in_one_batch(real_samples):
    tree = etree.parse(str(real_samples / "jats" / "PMC7417471.nxml"))
    maths = [etree.tostring(m, encoding="unicode") for m in tree.iter(f"{{{MML}}}math")]
    assert len(maths) >= 3
    latex = mathml_to_latex_many(maths)
    assert all(isinstance(x, str) and x for x in latex)
    assert latex == [mathml_to_latex(m) for m in maths[:len(latex)]]
