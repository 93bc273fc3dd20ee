"""The data files' errors, and pydantic's validation errors said as one line naming the field."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails


class DataFileError(ValueError):
    """A board, card or effect file breaks a rule; the message is one line naming the field."""


class BoardDataError(DataFileError):
    """The packaged board or card data is inconsistent (a bug in the data files)."""


class BoardFileError(DataFileError):
    """A board file supplied by the table breaks a rule."""


class CardFileError(DataFileError):
    """A card-set file supplied by the table breaks a rule."""


class RuleSetError(ValueError):
    """An unknown rule set, or a player count the rule set does not take."""


_LISTS_BY_ID = ("regions", "spaces", "cards")


def _field_path(loc: tuple[Any, ...], raw: Any) -> str:
    parts: list[str] = []
    node = raw
    for item in loc:
        if isinstance(item, str) and ("[" in item or item.startswith("function-")):
            continue  # pydantic's type tags, not part of the file
        if isinstance(item, int) and parts and parts[-1] in _LISTS_BY_ID:
            entry = node[item] if isinstance(node, list) and item < len(node) else None
            ident = entry.get("id") if isinstance(entry, dict) else None
            parts[-1] += f"[{ident if isinstance(ident, str) else item}]"
            node = entry
            continue
        if isinstance(item, int) and parts:
            parts[-1] += f"[{item}]"
        else:
            parts.append(str(item))
        node = node.get(item) if isinstance(node, dict) else None
    return ".".join(parts) or "(top level)"


_PYDANTIC_TEXT = {
    "missing": "is required",
    "extra_forbidden": "unknown field",
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "int_from_float": "must be an integer",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be a text",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "tuple_type": "must be a list",
    "less_than_equal": "must be at most {le}",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than": "must be less than {lt}",
    "string_pattern_mismatch": "must match {pattern} (lowercase letters, digits, _)",
    "too_short": "needs at least {min_length} entries",
    "literal_error": "must be one of {expected}",
}


def _error_text(error: ErrorDetails) -> str:
    template = _PYDANTIC_TEXT.get(error["type"])
    if template:
        return template.format(**error.get("ctx", {}))
    message = str(error["msg"]).removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


def _one_line(exc: ValidationError, raw: Any, what: str) -> str:
    errors = exc.errors()
    first = errors[0]
    more = f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})" if len(errors) > 1 else ""
    return f"{what}: {_field_path(first['loc'], raw)}: {_error_text(first)}{more}"


def parse_file(model: type[BaseModel], raw: Any, err: type[DataFileError], what: str) -> Any:
    if not isinstance(raw, dict):
        raise err(f"{what}: must be a JSON object, not {type(raw).__name__}")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise err(_one_line(exc, raw, what)) from None
