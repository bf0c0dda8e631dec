"""MathML -> LaTeX through pandoc (the Pap2Pat paper's conversion), on the real PMC article's MathML too."""
from __future__ import annotations

from lxml import etree

from sources.formulas import escape_dollars, mathml_to_latex, mathml_to_latex_many, unwrap_table

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


def test_one_row_tables_around_a_display_formula_are_unwrapped():
    """Publishers wrap a display formula in an `<mtable>` to align or number it; pandoc writes that as a
    `matrix`/`array` around the formula. One row is unwrapped (a label cell dropped); several rows are kept.
    The JATS route unwraps (patents' formulas are left as pandoc writes them)."""
    one = f'<mml:math xmlns:mml="{MML}" display="block"><mml:mtable><mml:mtr><mml:mtd><mml:mi>x</mml:mi>' \
          "<mml:mo>=</mml:mo><mml:mn>1</mml:mn></mml:mtd></mml:mtr></mml:mtable></mml:math>"
    aligned = '<math display="block"><mtable columnalign="left"><mtr><mtd><mi>a</mi></mtd><mtd><mo>=</mo>' \
              "<mfrac><mi>b</mi><mi>c</mi></mfrac></mtd></mtr></mtable></math>"
    labelled = '<math display="block"><mtable><mlabeledtr><mtd><mtext>(1)</mtext></mtd><mtd><mi>x</mi>' \
               "<mo>=</mo><mn>1</mn></mtd></mlabeledtr></mtable></math>"
    rows = '<math display="block"><mtable columnalign="left"><mtr><mtd><mi>x</mi></mtd></mtr><mtr><mtd><mi>y</mi>' \
           "</mtd></mtr></mtable></math>"
    got = [unwrap_table(x) for x in mathml_to_latex_many([one, aligned, labelled, rows])]
    assert got[:3] == ["x = 1", "a = \\frac{b}{c}", "x = 1"]
    assert got[3].startswith("\\begin{array}{l}") and "\\\\" in got[3]
    assert unwrap_table("\\begin{matrix}\n{a} + {b}\n\\end{matrix}") == "{a} + {b}"


def test_literal_dollar_escaped():
    assert escape_dollars("costs $5, not \\$6") == "costs \\$5, not \\$6"
