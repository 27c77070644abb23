"""Every description `plyground list` prints is whole: never a docstring's first line cut mid-sentence
(`pig/optimal` read "... as 1000 * (2p - 1); a search one")."""

import inspect

DANGLING = {"a", "an", "the", "of", "and", "or", "to", "by", "with", "for", "as"}


def _specs(registry):
    for table in (registry.games, registry.agents, registry.heuristics, registry.game_files):
        for registered in table.values():
            yield registered.spec


def test_no_description_ends_mid_sentence(registry):
    for spec in _specs(registry):
        words = spec.help.rstrip().split()
        assert words, f"{spec.name}: no description"
        assert words[-1].lower() not in DANGLING and not spec.help.rstrip().endswith((",", ";", ":")), \
            f"{spec.name}: the description stops mid-sentence: {spec.help!r}"
        for param in getattr(spec, "params", ()):
            assert param.help.split() and param.help.split()[-1].lower() not in DANGLING, (spec.name, param.name)


def test_a_description_taken_from_a_docstring_is_its_whole_first_paragraph(registry):
    for spec in _specs(registry):
        doc = inspect.getdoc(getattr(spec, "factory", None)) or ""
        paragraph = " ".join(doc.split("\n\n")[0].split())
        if paragraph and paragraph.startswith(spec.help[:30]):
            assert spec.help == paragraph, f"{spec.name}: {spec.help!r} cuts its docstring's {paragraph!r}"
