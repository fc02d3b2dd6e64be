"""Plotly figure builders shared by the app and notebooks.

``import mpcore`` does not import this package; ``import mpcore.plots`` does
(it needs plotly, never streamlit). Every figure uses the colour-blind-safe
Okabe-Ito palette and fonts sized for a projector. An animated figure is a dict
(or a ``go.Figure``) with one frame per step; :func:`deep_merge` applies a frame's
patch as plotly.js does. :mod:`mpcore.plots.text_size` estimates how much room a
figure's text takes. Pages import from here only, never from the private modules.
"""

from ._bounds import bound_curves_figure, bound_curves_figure_dict
from ._kmp_animations import (
    kmp_fit_animation,
    kmp_prediction_animation,
    kmp_values_animation,
)
from ._kmp_surface import kmp_present_layout, kmp_surface_animation, kmp_surface_animation_dict
from ._kmp_comparison import kmp_comparison_figure, kmp_fit_comparison_figure
from ._kmp_curves import kmp_curves_figure, margin_loss_figure, step_time_figure
from ._kmp_parts import BOUND_STOP, TEST_ERR, TEST_MIN, TRAIN_ERR, VAL_ERR, VAL_STOP
from .geometry import grid_2d, zero_level
from ._reproduce import (
    argmin_distribution_figure,
    digit_errors_figure,
    mark_published,
    published_vs_ours_figure,
    sketch_errors_figure,
    sweep_heatmap_figure,
)
from ._kcca import kcca_animation, kcca_animation_dict
from ._spectrum import (
    EKM_SERIES,
    EXACT,
    NYSTROM_SERIES,
    angles_figure,
    angles_figure_dict,
    error_curves_figure,
    error_curves_figure_dict,
    plotted_rows,
    scree_figure,
    scree_figure_dict,
)
from ._common import (
    FONT_SIZE,
    LABEL_CHARS,
    OKABE_ITO,
    PALETTE,
    base_layout,
    deep_merge,
    plain_text,
    project_2d,
    title_top_y,
)
from ._skpca import (
    skpca_animation,
    skpca_animation_dict,
    trace_curves_figure,
)

__all__ = ["argmin_distribution_figure", "sweep_heatmap_figure", "digit_errors_figure",
           "mark_published", "published_vs_ours_figure",
           "sketch_errors_figure", "kmp_comparison_figure", "kmp_curves_figure", "kmp_fit_animation",
           "kmp_fit_comparison_figure", "kmp_prediction_animation", "kmp_surface_animation",
           "kmp_surface_animation_dict",
           "kmp_values_animation", "kmp_present_layout", "margin_loss_figure",
           "step_time_figure", "kcca_animation", "kcca_animation_dict", "angles_figure",
           "angles_figure_dict", "error_curves_figure",
           "error_curves_figure_dict", "scree_figure_dict",
           "plotted_rows", "scree_figure", "bound_curves_figure", "bound_curves_figure_dict",
           "OKABE_ITO", "PALETTE", "LABEL_CHARS", "FONT_SIZE", "base_layout", "plain_text",
           "project_2d", "title_top_y", "deep_merge", "skpca_animation",
           "trace_curves_figure", "skpca_animation_dict", "grid_2d", "zero_level",
           # curve names the pages pass back (KMP curves tab; spectrum series)
           "BOUND_STOP", "TEST_ERR", "TEST_MIN", "TRAIN_ERR", "VAL_ERR", "VAL_STOP",
           "EKM_SERIES", "EXACT", "NYSTROM_SERIES"]
