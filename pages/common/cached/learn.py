"""The Learn page's cached parts: the app's lessons, a beat's computed view (its scene),
and what a question asks and answers in it (views.lesson_questions)."""

from pages.common.lesson_file import SCHEMAS, Lesson, load_lessons
from views import lesson_questions
from views.lesson_scenes import page_scene

from .base import ENTRIES, TTL, cache_data, cache_resource

#: Feedback and questions are small and many (one per beat, question and answer given).
ANSWERS_ENTRIES = 256


@cache_resource(max_entries=1, ttl=TTL, show_spinner=False)
def app_lessons() -> dict[str, Lesson]:
    """The lessons of lessons/ (validated once per server; a bad file is a bug the tests see)."""
    return load_lessons()


@cache_resource(max_entries=ENTRIES, ttl=TTL, show_spinner="Computing the view...")
def scene(query: tuple, k_max: int, page: str = "skpca"):
    """The beat's page computed in the state of its address ``query``."""
    state, _ = SCHEMAS[page].build(dict(query))
    return page_scene(page, state, k_max)


@cache_data(max_entries=ANSWERS_ENTRIES, ttl=TTL, show_spinner="Checking with the algorithm...")
def feedback(name: str, query: tuple, k_max: int, answer, page: str = "skpca"
             ) -> tuple[bool, str]:
    fb = lesson_questions.get(name).check(scene(query, k_max, page), answer)
    return fb.right, fb.text


@cache_data(max_entries=ANSWERS_ENTRIES, ttl=TTL, show_spinner=False)
def asked(name: str, query: tuple, k_max: int, page: str = "skpca") -> lesson_questions.Asked:
    return lesson_questions.get(name).ask(scene(query, k_max, page))
