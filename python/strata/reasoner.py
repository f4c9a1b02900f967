"""The reasoners: a possibilistic theory (Theory) and a default base
(DefaultBase), each compiled once by the Go library for its queries."""

import weakref
from collections import namedtuple

from . import _native

__all__ = ["Theory", "DefaultBase", "Answer", "Level", "Conclusion"]

Level = namedtuple("Level", "weight formulas")
Level.__doc__ = "A level of a theory: its weight and its formulas as the theory file writes them."

Conclusion = namedtuple("Conclusion", "literal necessity")
Conclusion.__doc__ = "A plausible conclusion: a literal and its necessity degree given the evidence."


class Answer:
    """An answer to a query, as strata query --json and strata entails
    --json give it: entailed (a bool), answer ('yes' or 'no'), semantics,
    text (why, in the command line's words), degrees (the necessity, the
    deciding level and the inconsistency level) and explanation (the
    formulas or defaults that decide it). bool(answer) is entailed."""

    def __init__(self, view):
        self.view = view
        self.query = view["query"]
        self.answer = view["answer"]
        self.entailed = view["entailed"]
        self.semantics = view["semantics"]
        self.degrees = {k: view[k] for k in ("deciding_level", "deciding_weight", "inconsistency") if k in view}
        self.explanation = view.get("explanation") or {}
        self.text = self.explanation.get("text", "")

    def __bool__(self):
        return bool(self.entailed)

    def __repr__(self):
        return f"Answer({self.query!r}: {self.answer} under {self.semantics})"


def _query(alpha, beta):
    if beta is None:
        return {"query": alpha}
    return {"alpha": alpha, "beta": beta}


class _Compiled:
    def _open(self, method, request):
        res = _native.call(method, request)
        self._handle = res["handle"]
        self._finalizer = weakref.finalize(self, _native.release, self._handle)
        return res["view"]

    def _ask(self, method, request):
        request["handle"] = self._handle
        return _native.call(method, request)

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


class Theory(_Compiled):
    """A possibilistic theory in the text format ("WEIGHT: FORMULA" lines),
    as strata query reads it. A text that cannot be read raises
    strata.ParseError (a ValueError) with its line and column.

    levels lists its levels, highest first; entails(alpha, beta) decides
    (Θ, α) ⊢ β under a semantics (poss, linear or lex), explain says why,
    conclusions lists what follows from evidence with its necessity.
    """

    def __init__(self, text, name="theory"):
        self.text, self.name = text, name
        view = self._open("theory.open", {"text": text, "name": name})
        self.levels = [Level(lv["weight"], list(lv["formulas"])) for lv in view["levels"]]
        self.atoms = list(view["atoms"] or [])
        self.inconsistency = view["inconsistency"]

    @classmethod
    def parse(cls, text, name="theory"):
        return cls(text, name)

    @classmethod
    def read(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls(f.read(), name=str(path))

    def __setstate__(self, state):
        self.__init__(state["text"], state["name"])

    def __repr__(self):
        return f"Theory({len(self.levels)} levels, {sum(len(lv.formulas) for lv in self.levels)} formulas)"

    def explain(self, alpha, beta=None, semantics="poss"):
        """The answer to α |~ β (or to the query alpha, 'α -> β' or a formula,
        when beta is None), with why."""
        return Answer(self._ask("theory.query", dict(_query(alpha, beta), semantics=semantics)))

    def entails(self, alpha, beta=None, semantics="poss"):
        """Whether (Θ, α) entails β under semantics: poss (the paper's,
        drowning), linear or lex. alpha is evidence (',' is 'and'); with beta
        None, alpha is a whole query ('penguin -> !flies')."""
        return self.explain(alpha, beta, semantics).entailed

    def conclusions(self, given="", semantics="poss"):
        """The literals that follow from the evidence given, each with its
        necessity degree, as strata query --given lists them."""
        res = self._ask("theory.conclusions", {"alpha": given, "semantics": semantics})
        return [Conclusion(c["literal"], c["necessity"]) for c in res["conclusions"]]


class DefaultBase(_Compiled):
    """A default base: a rule file ('bird -> flies', one per line) or a .cl
    knowledge base, as strata entails reads it; background holds hard rules,
    one formula per line (strata entails --hard). A text that cannot be
    read raises strata.ParseError with its line and column.

    entails(alpha, beta, relation) decides α |~ β under System P ('p'),
    rational closure ('rational'), lexicographic closure ('lex'), System W
    ('w') or c-inference ('c'); ranks() gives the ranking functions.
    """

    def __init__(self, text, background="", format="auto", base="", weak=False, name="rules"):
        self.text, self.background, self.format, self.base, self.weak, self.name = text, background, format, base, weak, name
        fmt = "" if format == "auto" else format
        view = self._open("base.open", {"text": text, "name": name, "format": fmt, "base": base, "background": background, "weak": weak})
        self.defaults = [d["rule"] for d in view["defaults"]]
        self.z_ordering = [[view["defaults"][i]["rule"] for i in z["defaults"]] for z in view["z_ordering"]]

    @classmethod
    def read(cls, path, background_path=None, **kw):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        background = ""
        if background_path:
            with open(background_path, encoding="utf-8") as f:
                background = f.read()
        if str(path).lower().endswith(".cl"):
            kw.setdefault("format", "cl")
        return cls(text, background, name=str(path), **kw)

    def __setstate__(self, state):
        self.__init__(state["text"], state["background"], state["format"], state["base"], state["weak"], state["name"])

    def __repr__(self):
        return f"DefaultBase({len(self.defaults)} defaults, {len(self.z_ordering)} Z-levels)"

    def explain(self, alpha, beta=None, relation="rational"):
        """The answer to α |~ β (or to the query alpha when beta is None),
        with why."""
        return Answer(self._ask("base.query", dict(_query(alpha, beta), semantics=relation)))

    def entails(self, alpha, beta=None, relation="rational"):
        """Whether the base entails α |~ β under relation: 'p', 'rational',
        'lex', 'w' or 'c'."""
        return self.explain(alpha, beta, relation).entailed

    def ranks(self, which="both"):
        """System Z's ranks and a minimal c-representation's impacts, as
        strata closure --ranks --json gives them: which is 'z', 'c' or
        'both'."""
        return self._ask("base.ranks", {"which": "" if which == "both" else which})
