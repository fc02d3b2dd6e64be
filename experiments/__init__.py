r"""Rebuild every figure and table of the papers, next to the published numbers.

One registry, :data:`EXPERIMENTS` (:mod:`experiments.registry`), holds an
experiment per published figure or table, one module per paper:

=========================  ===========================================================
key                        source
=========================  ===========================================================
``hst_fig1_boston``        Hussain & Shawe-Taylor [1]_, Figure 1 left (Boston housing)
``hst_fig1_toy``           [1]_, Figure 1 right (1000 x 450 Gaussian toy)
``hst_fig2_kmp``           [1]_, Figure 2 (KMP test error and Theorem 3 bound)
``vb_fig5_losses``         Vincent & Bengio [2]_, Figure 5 (losses of the margin)
``vb_fig6_fittings``       [2]_, Figure 6 (basic, back-fitting, pre-fitting, SVM)
``vb_fig7_tanh``           [2]_, Figure 7 (linear kernel: squared vs tanh loss vs SVM)
``vb_table3_cancer``       [2]_, Table 3, original Wisconsin breast cancer (SVM vs KMPs)
``vb_table3_sonar``        [2]_, Table 3, Sonar
``vb_table3_pima``         [2]_, Table 3, Pima Indians diabetes
``vb_table3_ionosphere``   [2]_, Table 3, Ionosphere
``vb_table1_digits``       [2]_, Table 1 in spirit (8 x 8 digits standing in for USPS)
``marukatat_ekm``          Marukatat [3]_, Algorithm 1 with both sketches, q growing
=========================  ===========================================================

(:mod:`experiments.hussain_shawe_taylor`, :mod:`experiments.vincent_bengio`,
:mod:`experiments.marukatat`.) Each is a function
``(settings=None, quick=False, progress=None) -> Result``. ``settings`` is a
frozen dataclass with documented defaults (``quick=True`` picks the reduced
defaults of ``Settings.quick()`` when ``settings`` is None);
``progress(fraction, message)`` is called as the work proceeds. A
:class:`Result` carries the figure (plotly), the table (pandas), the published
values, ours, and one :class:`Check` per published claim with its verdict
(:mod:`experiments.verdicts`: :func:`verdict_k`, :func:`verdict_value`,
:func:`verdict_claim`).

This package sits beside :mod:`mpcore` and :mod:`datasets`: it loads data sets
by name, uses the page computations of :mod:`views` (Figures 6 and 7 are the
KMP page's comparison) and draws with :mod:`mpcore.plots`; ``mpcore`` itself
imports none of them. From the command line (no browser)::

    python -m experiments --out results [--quick] [--only KEY,KEY]

writes every figure as a standalone HTML file, every table as CSV, and
``summary.md`` / ``summary.csv`` with the published-vs-ours table
(:mod:`experiments.report`, :mod:`experiments.command`).

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
.. [3] S. Marukatat. Kernel matrix decomposition via empirical kernel map.
   Pattern Recognition Letters 77, 2016.
"""

from ._common import Result
from .command import TerminalProgress, main
from .hussain_shawe_taylor import (
    BostonBoundsSettings,
    KMPBoundSettings,
    ToyBoundsSettings,
    hst_fig1_boston,
    hst_fig1_toy,
    hst_fig2_kmp,
)
from .marukatat import SketchSettings, marukatat_ekm
from .registry import EXPERIMENTS, Experiment, run_all, run_experiment
from .report import summary_frame, summary_markdown, write_outputs
from .verdicts import (
    K_CLOSE,
    K_REPRODUCED,
    REL_CLOSE,
    REL_REPRODUCED,
    VERDICT_RULES,
    VERDICTS,
    Check,
    verdict_claim,
    verdict_k,
    verdict_value,
    worst,
)
from .vincent_bengio import (
    PUBLISHED_TABLE1,
    PUBLISHED_TABLE3,
    PUBLISHED_TABLE3_ROWS,
    CancerSettings,
    DigitsSettings,
    FittingsSettings,
    IonosphereSettings,
    LossSettings,
    PimaSettings,
    SonarSettings,
    TanhSettings,
    UCISettings,
    corrected_resampled_ttest,
    thirds,
    vb_fig5_losses,
    vb_fig6_fittings,
    vb_fig7_tanh,
    vb_table1_digits,
    vb_table3_cancer,
    vb_table3_ionosphere,
    vb_table3_pima,
    vb_table3_sonar,
)

__all__ = [
    "Check", "Result", "Experiment", "EXPERIMENTS", "VERDICTS", "VERDICT_RULES", "K_REPRODUCED",
    "K_CLOSE", "REL_REPRODUCED", "REL_CLOSE", "run_experiment", "run_all", "summary_frame",
    "summary_markdown", "write_outputs", "verdict_k", "verdict_value", "verdict_claim", "worst",
    "BostonBoundsSettings", "ToyBoundsSettings", "KMPBoundSettings", "LossSettings",
    "FittingsSettings", "TanhSettings", "CancerSettings", "DigitsSettings", "SketchSettings",
    "UCISettings", "SonarSettings", "PimaSettings", "IonosphereSettings", "thirds",
    "PUBLISHED_TABLE1", "PUBLISHED_TABLE3", "PUBLISHED_TABLE3_ROWS", "corrected_resampled_ttest", "TerminalProgress", "main",
    "hst_fig1_boston", "hst_fig1_toy", "hst_fig2_kmp", "vb_fig5_losses", "vb_fig6_fittings",
    "vb_fig7_tanh", "vb_table3_cancer", "vb_table3_sonar", "vb_table3_pima",
    "vb_table3_ionosphere", "vb_table1_digits", "marukatat_ekm",
]
