"""Liquid ``for`` loops written as Jekyll writes them (``dialects/jekyll/liquid.py``, ``_loop``):
a loop over a list the page can read gives its body once per item; a loop whose effect depends
on conditions (``else``, ``break``, ``continue``) or over what cannot be read is read as before,
its text once; hostile nesting and sizes stay bounded."""

from __future__ import annotations

from contextpull.dialects.jekyll import liquid
from contextpull.dialects.syntax.template_tags import restore

DATA = {
    "site.data.filters": [
        {"name": "Slugify", "description": "Convert a string into a lowercase URL slug.",
         "examples": [{"input": '{{ "The _config.yml file" | slugify }}', "output": "the-config-yml-file"}]},
        {"name": "Where", "description": "Select all the objects in an array where the key has the given value.",
         "version_badge": "4.0", "examples": [{"input": "{{ site.members | where: 'graduation_year','2014' }}"}]},
    ],
    "page.letters": ["a", "b", "c", "d"],
    "site.data.colours": {"red": "#f00", "blue": "#00f"},
}

PAGE = """\
<table>
{% for filter in site.data.filters %}
<tr><td><strong>{{ filter.name }}</strong> {{- filter.description -}}
{%- if filter.version_badge %} <span>{{ filter.version_badge }}</span>{% endif %}</td>
<td>{% for example in filter.examples %}<code>{{ example.input }}</code> {{ example.output }}{% endfor %}</td></tr>
{% endfor %}
</table>

{% for letter in page.letters reversed offset: 1 limit: 2 %}{{ forloop.index }}/{{ forloop.length }} {{ letter }}; {% endfor %}

{% for pair in site.data.colours %}{{ pair[0] }} is {{ pair[1] }}. {% endfor %}
"""


def _render(text: str, data: dict | None = None):
    notes = []
    table = DATA if data is None else data
    scope = liquid.Scope(table.get, lambda name, args, line: None, lambda *note: notes.append(list(note)))
    return restore(liquid.render(text, scope, 1), scope.held), notes


def test_a_loop_over_data_is_written_once_per_item(file_regression, data_regression):
    out, notes = _render(PAGE)
    file_regression.check(out, basename="liquid_loops", extension=".md")
    data_regression.check(notes, basename="liquid_loops_notes")


def test_values_from_data_are_not_read_as_liquid_again():
    out, _ = _render(PAGE)
    assert '{{ "The _config.yml file" | slugify }}' in out


def test_a_loop_whose_effect_depends_on_a_condition_is_read_as_before():
    for body in ("{{ x }}{% else %}none", "{% if x %}{% break %}{% endif %}{{ x }}", "{% continue %}{{ x }}"):
        out, notes = _render("{% for x in page.letters %}" + body + "{% endfor %}")
        assert out.count("a") <= 1 and ["liquid for", "converted", 1] in [n[:3] for n in notes], body
    out, _ = _render("{% for x in page.letters %}{% if x %}{{ x }}{% else %}-{% endif %}{% endfor %}")
    assert out.startswith("a-b-c-d-")  # an else of an if inside is not the loop's; both branches stay, as elsewhere


def test_a_loop_over_what_cannot_be_read_is_noted_as_before():
    out, notes = _render("{% for x in site.data.absent %}[{{ x }}]{% endfor %}")
    assert out == "[]"
    assert any("not evaluated" in str(note[-1]) for note in notes)
    out, _ = _render("{% for x in page.letters limit: page.absent %}[{{ x }}]{% endfor %}")
    assert out == "[]"  # a bound that cannot be read: the body once, as before
    out, _ = _render("{% for x in page.letters offset: 3 limit: 5 %}[{{ x }}]{% endfor %}")
    assert out == "[d]"


def test_deep_nesting_and_large_products_stay_bounded():
    """Twelve loops of 50 items one inside the other would write 50**12 bodies; past LOOP_DEPTH
    a loop is read once, and past LOOP_CHARS every loop is, so the work stays near the bound."""
    data = {"page.many": list(range(50))}
    nested = "".join(f"{{% for v{i} in page.many %}}x" for i in range(12)) + "{% endfor %}" * 12
    out, notes = _render(nested, data)
    assert len(out) < 4 * liquid.LOOP_CHARS
    assert any(note[0] == "liquid for" and note[1] == "unresolved" for note in notes)
    silent = "{% for a in page.many %}{% for b in page.many %}{% for c in page.many %}{% for d in page.many %}" \
             "{% endfor %}{% endfor %}{% endfor %}{% endfor %}"  # bodies that write nothing still cost
    out, notes = _render(silent, {"page.many": list(range(400))})
    assert out == "" and any(note[1] == "unresolved" for note in notes)


def test_a_megabyte_of_unclosed_loop_openers_is_matched_once():
    opener = "{% for x in page.letters %}"
    out, notes = _render(opener * (1_000_000 // len(opener)))
    assert out == "" and [n[:3] for n in notes].count(["liquid for", "converted", 1]) == 1_000_000 // len(opener)
