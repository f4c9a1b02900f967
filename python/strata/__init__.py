"""strata: possibilistic logic theories learned from default rules and
tables, and reasoning with them, on strata's Go library.

StrataClassifier is a scikit-learn estimator that learns a theory from a
table (strata learn --table); Theory and DefaultBase are the reasoners of
strata query and strata entails; TableFolds draws the folds of strata bench
tabular. Errors of text that cannot be read are ParseError, a ValueError
carrying the line and column.
"""

from ._native import InternalError, ParseError, StrataError
from .classifier import Explanation, Rule, StrataClassifier
from .model_selection import TableFolds
from .reasoner import Answer, Conclusion, DefaultBase, Level, Theory

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Conclusion",
    "DefaultBase",
    "Explanation",
    "InternalError",
    "Level",
    "ParseError",
    "Rule",
    "StrataClassifier",
    "StrataError",
    "TableFolds",
    "Theory",
]
