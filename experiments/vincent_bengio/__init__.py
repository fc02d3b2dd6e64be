r"""Vincent & Bengio [1]_: Figures 5, 6 and 7, Table 3 and Table 1 (in spirit).

``vb_fig5_losses``: the losses as functions of the margin; ``vb_fig6_fittings``
and ``vb_fig7_tanh``: the comparisons of :func:`views.kmp.compare`, the one the
KMP page shows; ``vb_table3_cancer``, ``vb_table3_sonar``, ``vb_table3_pima``,
``vb_table3_ionosphere``: the four rows of Table 3 on the UCI data sets, SVM
against KMP-mse and KMP-tanh over random splits into thirds (Section 5.3), with
Nadeau & Bengio's corrected resampled t-test;
``vb_table1_digits``: one-against-the-rest digits standing in for USPS.

The package holds one module per result: :mod:`.figures` (Figures 5 to 7), :mod:`.table3`
(Table 3 and its t-test) and :mod:`.table1` (Table 1); every name is importable from here.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
"""

from ._paper import VB
from .figures import (
    FittingsSettings,
    LossSettings,
    TanhSettings,
    vb_fig5_losses,
    vb_fig6_fittings,
    vb_fig7_tanh,
)
from .table1 import NOISY_ERROR_COUNT, PUBLISHED_TABLE1, DigitsSettings, vb_table1_digits
from .table3 import (
    C_GRID,
    PAPER_SIGMA,
    PUBLISHED_TABLE3,
    PUBLISHED_TABLE3_ROWS,
    TABLE3_DATA,
    CancerSettings,
    IonosphereSettings,
    PimaSettings,
    SonarSettings,
    UCISettings,
    corrected_resampled_ttest,
    table3_split,
    thirds,
    vb_table3_cancer,
    vb_table3_ionosphere,
    vb_table3_pima,
    vb_table3_sonar,
    vb_table3_uci,
)

__all__ = ["VB", "LossSettings", "FittingsSettings", "TanhSettings", "UCISettings",
           "CancerSettings", "SonarSettings", "PimaSettings", "IonosphereSettings",
           "DigitsSettings", "vb_fig5_losses", "vb_fig6_fittings", "vb_fig7_tanh",
           "vb_table3_uci", "vb_table3_cancer", "vb_table3_sonar", "vb_table3_pima",
           "vb_table3_ionosphere", "vb_table1_digits", "corrected_resampled_ttest", "thirds",
           "table3_split", "C_GRID", "PUBLISHED_TABLE3", "PUBLISHED_TABLE3_ROWS", "PAPER_SIGMA",
           "TABLE3_DATA", "PUBLISHED_TABLE1", "NOISY_ERROR_COUNT"]
