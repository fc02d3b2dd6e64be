"""The hall's version route alone, as its own small ASGI app: ``uvicorn hall.version_app:app``.

``deploy/serve.py`` runs it beside the Streamlit processes and HAProxy sends it every
``GET /hall/version``: 200 students ask every second, and through a Streamlit process's
own stack each answer costs that process's interpreter more than twice the CPU, taken from
the runs of the pages that follow a move.
"""

from starlette.applications import Starlette

from hall.version_route import ROUTES

app = Starlette(routes=ROUTES)
