"""Discord's payload rules, as pure functions that list what a payload breaks.

What this is: checks for message bodies (content, embeds, components v1 and v2, flags), modals,
autocomplete choices, application command definitions and unsuppressed @everyone/@here/role
mentions. Each returns a list of human-readable problems (empty = fine); the REST layer turns
them into violations and Discord-style 400 answers.

What this is not: a complete copy of Discord's validation. It covers the limits a bot is likely
to hit (lengths, counts, uniqueness, layout) and leaves out rare ones (stickers, polls, forum tags,
emoji formats, total command size across localizations).
"""

from __future__ import annotations

import re
from typing import Any

from .records import EPHEMERAL, IS_COMPONENTS_V2, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS

SELECT_TYPES = {3, 5, 6, 7, 8}
MESSAGE_FLAGS_ALLOWED = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_content(content: Any) -> list[str]:
    if content is None:
        return []
    if not isinstance(content, str):
        return [f"content must be a string, got {type(content).__name__}"]
    if len(content) > 2000:
        return [f"content is {len(content)} characters (max 2000)"]
    return []


def check_embeds(embeds: Any) -> list[str]:
    if embeds is None:
        return []
    if not isinstance(embeds, list):
        return ["embeds must be a list"]
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        title, desc = embed.get("title"), embed.get("description")
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        if _len(title) > 256:
            problems.append(f"{where}.title is {_len(title)} characters (max 256)")
        if _len(desc) > 4096:
            problems.append(f"{where}.description is {_len(desc)} characters (max 4096)")
        if _len(footer) > 2048:
            problems.append(f"{where}.footer.text is {_len(footer)} characters (max 2048)")
        if _len(author) > 256:
            problems.append(f"{where}.author.name is {_len(author)} characters (max 256)")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{where} has {len(fields)} fields (max 25)")
        total += _len(title) + _len(desc) + _len(footer) + _len(author)
        for j, f in enumerate(fields):
            name, value = f.get("name"), f.get("value")
            if not name or _len(name) > 256:
                problems.append(f"{where}.fields[{j}].name must be 1-256 characters (got {_len(name)})")
            if not value or _len(value) > 1024:
                problems.append(f"{where}.fields[{j}].value must be 1-1024 characters (got {_len(value)})")
            total += _len(name) + _len(value)
    if total > 6000:
        problems.append(f"embeds hold {total} characters in total (max 6000)")
    return problems


def _check_button(b: dict[str, Any], where: str, problems: list[str], ids: list[str]) -> None:
    style = b.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append(f"{where}: button style {style!r} is not 1-6")
    label = b.get("label")
    if _len(label) > 80:
        problems.append(f"{where}: button label is {_len(label)} characters (max 80)")
    if style == 5:
        if not b.get("url"):
            problems.append(f"{where}: link button without url")
        if b.get("custom_id"):
            problems.append(f"{where}: link button must not have a custom_id")
    elif style == 6:
        if not b.get("sku_id"):
            problems.append(f"{where}: premium button without sku_id")
    else:
        _check_custom_id(b, where, problems, ids)
        if b.get("url"):
            problems.append(f"{where}: non-link button must not have a url")
    if style != 6 and not label and not b.get("emoji"):
        problems.append(f"{where}: button needs a label or an emoji")


def _check_custom_id(c: dict[str, Any], where: str, problems: list[str], ids: list[str]) -> None:
    custom_id = c.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        problems.append(f"{where}: missing custom_id")
        return
    if len(custom_id) > 100:
        problems.append(f"{where}: custom_id is {len(custom_id)} characters (max 100): {custom_id[:40]!r}…")
    ids.append(custom_id)


def _check_select(s: dict[str, Any], where: str, problems: list[str], ids: list[str]) -> None:
    _check_custom_id(s, where, problems, ids)
    if _len(s.get("placeholder")) > 150:
        problems.append(f"{where}: placeholder is {_len(s.get('placeholder'))} characters (max 150)")
    lo = s.get("min_values", 1)
    hi = s.get("max_values", 1)
    if not isinstance(lo, int) or not 0 <= lo <= 25:
        problems.append(f"{where}: min_values {lo!r} not in 0-25")
    if not isinstance(hi, int) or not 1 <= hi <= 25:
        problems.append(f"{where}: max_values {hi!r} not in 1-25")
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        problems.append(f"{where}: min_values {lo} > max_values {hi}")
    if s.get("type") != 3:
        return
    options = s.get("options") or []
    if not options:
        problems.append(f"{where}: string select without options")
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} select options (max 25)")
    values: list[Any] = []
    defaults = 0
    for k, option in enumerate(options):
        ow = f"{where}.options[{k}]"
        label, value, desc = option.get("label"), option.get("value"), option.get("description")
        if not label or _len(label) > 100:
            problems.append(f"{ow}: label must be 1-100 characters (got {_len(label)})")
        if not value or _len(value) > 100:
            problems.append(f"{ow}: value must be 1-100 characters (got {_len(value)})")
        if _len(desc) > 100:
            problems.append(f"{ow}: description is {_len(desc)} characters (max 100)")
        values.append(value)
        defaults += bool(option.get("default"))
    dup = sorted({str(v) for v in values if values.count(v) > 1})
    if dup:
        problems.append(f"{where}: select option values not unique: {dup}")
    if isinstance(hi, int) and options and hi > len(options):
        problems.append(f"{where}: max_values {hi} > {len(options)} options")
    if isinstance(hi, int) and defaults > hi:
        problems.append(f"{where}: {defaults} default options > max_values {hi}")


def _check_row(row: dict[str, Any], where: str, problems: list[str], ids: list[str], *, modal: bool = False) -> None:
    children = row.get("components") or []
    if not children:
        problems.append(f"{where}: empty action row")
        return
    types = [c.get("type") for c in children]
    buttons = types.count(2)
    selects = sum(t in SELECT_TYPES for t in types)
    if buttons > 5:
        problems.append(f"{where}: {buttons} buttons in one row (max 5)")
    if selects and len(children) > 1:
        problems.append(f"{where}: a select menu must be alone in its action row (row has {len(children)})")
    for i, child in enumerate(children):
        cw = f"{where}.components[{i}]"
        t = child.get("type")
        if t == 2:
            _check_button(child, cw, problems, ids)
        elif t in SELECT_TYPES:
            _check_select(child, cw, problems, ids)
        elif t == 4:
            if not modal:
                problems.append(f"{cw}: text inputs are only allowed in modals")
            else:
                _check_text_input(child, cw, problems, ids, labelled=False)
        else:
            problems.append(f"{cw}: component type {t!r} cannot go in an action row")


def _count(component: dict[str, Any]) -> int:
    n = 1
    for key in ("components", "items"):
        for child in component.get(key) or []:
            n += _count(child) if isinstance(child, dict) else 0
    for key in ("accessory", "component"):
        if isinstance(component.get(key), dict):
            n += _count(component[key])
    return n


def _check_v2(c: dict[str, Any], where: str, problems: list[str], ids: list[str], *, in_container: bool) -> None:
    t = c.get("type")
    if t == 1:
        _check_row(c, where, problems, ids)
    elif t == 9:
        texts = c.get("components") or []
        if not 1 <= len(texts) <= 3 or any(x.get("type") != 10 for x in texts):
            problems.append(f"{where}: a section needs 1-3 text displays")
        for x in texts:
            if _len(x.get("content")) > 4000:
                problems.append(f"{where}: text display over 4000 characters")
        acc = c.get("accessory")
        if not isinstance(acc, dict) or acc.get("type") not in (2, 11):
            problems.append(f"{where}: a section needs a button or thumbnail accessory")
        elif acc.get("type") == 2:
            _check_button(acc, f"{where}.accessory", problems, ids)
    elif t == 10:
        if not c.get("content"):
            problems.append(f"{where}: empty text display")
    elif t == 12:
        items = c.get("items") or []
        if not 1 <= len(items) <= 10:
            problems.append(f"{where}: a media gallery needs 1-10 items")
    elif t in (13, 14):
        pass
    elif t == 17:
        if in_container:
            problems.append(f"{where}: containers cannot be nested")
        for i, child in enumerate(c.get("components") or []):
            _check_v2(child, f"{where}.components[{i}]", problems, ids, in_container=True)
    else:
        problems.append(f"{where}: component type {t!r} is not allowed at the top of a message")


def check_components(components: Any, *, v2: bool = False) -> list[str]:
    if components is None:
        return []
    if not isinstance(components, list):
        return ["components must be a list"]
    problems: list[str] = []
    ids: list[str] = []
    if not v2:
        if len(components) > 5:
            problems.append(f"{len(components)} action rows (max 5)")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(
                    f"components[{i}]: type {row.get('type')!r} at top level needs the IS_COMPONENTS_V2 flag"
                )
            else:
                _check_row(row, f"components[{i}]", problems, ids)
    else:
        total = sum(_count(c) for c in components)
        if total > 40:
            problems.append(f"{total} components in a components-v2 message (max 40)")
        for i, c in enumerate(components):
            _check_v2(c, f"components[{i}]", problems, ids, in_container=False)
    dup = sorted({x for x in ids if ids.count(x) > 1})
    if dup:
        problems.append(f"custom_id used twice in one message: {dup}")
    return problems


NONCE_LENGTH = 25  # Create Message: "nonce? integer or string ... (up to 25 characters)"
# enforce_nonce: "checked for uniqueness in the past few minutes". The docs give no figure; the
# fake keeps the shortest reading of "few", so the bot may not count on a longer window.
NONCE_WINDOW = 120.0


def nonce_problems(payload: dict[str, Any]) -> list[str]:
    """What Discord refuses in a message's ``nonce`` (an integer, or a string of 25 characters or fewer)."""
    nonce = payload.get("nonce")
    if nonce is None:
        return []
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        return [f"nonce: {nonce!r} is neither an integer nor a string"]
    if len(str(nonce)) > NONCE_LENGTH:
        return [f"nonce: {len(str(nonce))} characters (at most {NONCE_LENGTH})"]
    return []


def check_message(payload: dict[str, Any], *, old_flags: int = 0) -> list[str]:
    """Checks a create or edit body (only the fields it carries)."""
    problems = check_content(payload.get("content"))
    problems += check_embeds(payload.get("embeds"))
    flags = payload.get("flags")
    if flags is not None:
        if not isinstance(flags, int):
            problems.append(f"flags must be an integer, got {flags!r}")
            flags = 0
        elif flags & ~MESSAGE_FLAGS_ALLOWED:
            problems.append(f"flags {flags} set bits a bot cannot set ({flags & ~MESSAGE_FLAGS_ALLOWED})")
    v2 = bool(((flags or 0) | old_flags) & IS_COMPONENTS_V2)
    problems += check_components(payload.get("components"), v2=v2)
    if v2 and (payload.get("content") or payload.get("embeds")):
        problems.append("content and embeds cannot be used with IS_COMPONENTS_V2")
    am = payload.get("allowed_mentions")
    if am is not None and not isinstance(am, dict):
        problems.append("allowed_mentions must be an object")
    return problems


def _check_text_input(t: dict[str, Any], where: str, problems: list[str], ids: list[str], *, labelled: bool) -> None:
    _check_custom_id(t, where, problems, ids)
    if t.get("style") not in (1, 2):
        problems.append(f"{where}: text input style {t.get('style')!r} is not 1 or 2")
    label = t.get("label")
    if not labelled and (not label or _len(label) > 45):
        problems.append(f"{where}: text input label must be 1-45 characters (got {_len(label)})")
    if labelled and label:
        problems.append(f"{where}: a text input inside a label component must not have its own label")
    lo, hi = t.get("min_length"), t.get("max_length")
    if lo is not None and (not isinstance(lo, int) or not 0 <= lo <= 4000):
        problems.append(f"{where}: min_length {lo!r} not in 0-4000")
    if hi is not None and (not isinstance(hi, int) or not 1 <= hi <= 4000):
        problems.append(f"{where}: max_length {hi!r} not in 1-4000")
    value = t.get("value")
    if _len(value) > 4000:
        problems.append(f"{where}: value is {_len(value)} characters (max 4000)")
    if isinstance(hi, int) and _len(value) > hi:
        problems.append(f"{where}: pre-filled value is longer than max_length {hi}")
    if _len(t.get("placeholder")) > 100:
        problems.append(f"{where}: placeholder is {_len(t.get('placeholder'))} characters (max 100)")


def check_modal(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["a modal response needs a data object"]
    problems: list[str] = []
    ids: list[str] = []
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        problems.append(f"modal custom_id must be 1-100 characters (got {_len(custom_id)})")
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        problems.append(f"modal title must be 1-45 characters (got {_len(title)})")
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(f"a modal needs 1-5 components (got {len(components)})")
    for i, top in enumerate(components):
        where = f"components[{i}]"
        t = top.get("type")
        if t == 1:
            children = top.get("components") or []
            if len(children) != 1 or children[0].get("type") != 4:
                problems.append(f"{where}: an action row in a modal holds exactly one text input")
            _check_row(top, where, problems, ids, modal=True)
        elif t == 18:
            label = top.get("label")
            if not label or _len(label) > 45:
                problems.append(f"{where}: label must be 1-45 characters (got {_len(label)})")
            if _len(top.get("description")) > 100:
                problems.append(f"{where}: label description over 100 characters")
            inner = top.get("component")
            if not isinstance(inner, dict):
                problems.append(f"{where}: label without a component")
            elif inner.get("type") == 4:
                _check_text_input(inner, f"{where}.component", problems, ids, labelled=True)
            elif inner.get("type") in SELECT_TYPES:
                _check_select(inner, f"{where}.component", problems, ids)
            elif inner.get("type") != 19:
                problems.append(f"{where}: component type {inner.get('type')!r} cannot go in a label")
        elif t != 10:
            problems.append(f"{where}: component type {t!r} is not allowed at the top of a modal")
    dup = sorted({x for x in ids if ids.count(x) > 1})
    if dup:
        problems.append(f"custom_id used twice in one modal: {dup}")
    return problems


def check_choices(data: Any, option_type: int | None) -> list[str]:
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
        return ["an autocomplete response needs data.choices (a list)"]
    choices = data["choices"]
    problems: list[str] = []
    if len(choices) > 25:
        problems.append(f"autocomplete returned {len(choices)} choices (max 25)")
    for i, choice in enumerate(choices):
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"choices[{i}].name must be 1-100 characters (got {_len(name)})")
        for loc, text in (choice.get("name_localizations") or {}).items():
            if _len(text) > 100:
                problems.append(f"choices[{i}].name_localizations[{loc}] over 100 characters")
        if option_type in (None, 3):
            if not isinstance(value, str):
                if option_type == 3:
                    problems.append(f"choices[{i}].value must be a string for a string option, got {value!r}")
            elif len(value) > 100:
                problems.append(f"choices[{i}].value is {len(value)} characters (max 100)")
        elif option_type == 4 and (not isinstance(value, int) or isinstance(value, bool)):
            problems.append(f"choices[{i}].value must be an integer, got {value!r}")
        elif option_type == 10 and (not isinstance(value, int | float) or isinstance(value, bool)):
            problems.append(f"choices[{i}].value must be a number, got {value!r}")
    return problems


def mention_problems(content: Any, allowed_mentions: dict[str, Any] | None) -> list[str]:
    """@everyone/@here and role mentions that would ping (allowed_mentions absent = parse all)."""
    if not isinstance(content, str) or not content:
        return []
    parse = None if allowed_mentions is None else list(allowed_mentions.get("parse") or [])
    problems: list[str] = []
    for word in ("@everyone", "@here"):
        if word in content and (parse is None or "everyone" in parse):
            problems.append(f"content mentions {word} and allowed_mentions does not suppress it")
    allowed_roles = [] if allowed_mentions is None else [str(r) for r in allowed_mentions.get("roles") or []]
    for role_id in re.findall(r"<@&(\d+)>", content):
        if parse is None or "roles" in parse or role_id in allowed_roles:
            problems.append(f"content mentions role {role_id} and allowed_mentions does not suppress it")
    return problems


def _check_name(name: Any, where: str, problems: list[str], *, chat_input: bool) -> None:
    valid = isinstance(name, str) and (bool(COMMAND_NAME.match(name)) if chat_input else 1 <= len(name) <= 32)
    if not valid:
        problems.append(f"{where}: name {name!r} is not 1-32 word characters")
    elif chat_input and name != name.lower():
        problems.append(f"{where}: name {name!r} must be lowercase")


def _check_description(desc: Any, where: str, problems: list[str]) -> None:
    if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
        problems.append(f"{where}: description must be 1-100 characters (got {_len(desc)})")


def _check_localizations(obj: dict[str, Any], where: str, problems: list[str], *, chat_input: bool) -> None:
    for loc, text in (obj.get("name_localizations") or {}).items():
        _check_name(text, f"{where}.name_localizations[{loc}]", problems, chat_input=chat_input)
    for loc, text in (obj.get("description_localizations") or {}).items():
        _check_description(text, f"{where}.description_localizations[{loc}]", problems)


def _check_options(options: list[dict[str, Any]], where: str, problems: list[str], depth: int) -> None:
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (max 25)")
    kinds = [o.get("type") for o in options]
    subs = [k for k in kinds if k in (1, 2)]
    if subs and len(subs) != len(options):
        problems.append(f"{where}: subcommands cannot be mixed with plain options")
    names = [o.get("name") for o in options]
    dup = sorted({str(n) for n in names if names.count(n) > 1})
    if dup:
        problems.append(f"{where}: option names not unique: {dup}")
    seen_optional = False
    for i, option in enumerate(options):
        ow = f"{where}.options[{i}]"
        kind = option.get("type")
        _check_name(option.get("name"), ow, problems, chat_input=True)
        _check_description(option.get("description"), ow, problems)
        _check_localizations(option, ow, problems, chat_input=True)
        if kind == 2:
            if depth > 0:
                problems.append(f"{ow}: subcommand groups cannot be nested")
            inner = option.get("options") or []
            if any(o.get("type") != 1 for o in inner):
                problems.append(f"{ow}: a subcommand group may only hold subcommands")
            _check_options(inner, ow, problems, depth + 1)
        elif kind == 1:
            _check_options(option.get("options") or [], ow, problems, depth + 1)
        else:
            if kind not in range(3, 12):
                problems.append(f"{ow}: option type {kind!r} is not 3-11")
            if option.get("required"):
                if seen_optional:
                    problems.append(f"{ow}: required option {option.get('name')!r} after an optional one")
            else:
                seen_optional = True
            choices = option.get("choices") or []
            if len(choices) > 25:
                problems.append(f"{ow}: {len(choices)} choices (max 25)")
            if choices and option.get("autocomplete"):
                problems.append(f"{ow}: choices and autocomplete cannot both be set")
            for j, choice in enumerate(choices):
                if not 1 <= _len(choice.get("name")) <= 100:
                    problems.append(f"{ow}.choices[{j}].name must be 1-100 characters")
                if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                    problems.append(f"{ow}.choices[{j}].value over 100 characters")
            for key, top in (("min_length", 6000), ("max_length", 6000)):
                value = option.get(key)
                if value is not None and not 0 <= value <= top:
                    problems.append(f"{ow}: {key} {value} not in 0-{top}")


def check_command(cmd: Any, where: str = "command") -> list[str]:
    if not isinstance(cmd, dict):
        return [f"{where} must be an object"]
    problems: list[str] = []
    kind = cmd.get("type", 1)
    chat_input = kind == 1
    _check_name(cmd.get("name"), where, problems, chat_input=chat_input)
    if chat_input:
        _check_description(cmd.get("description"), where, problems)
        _check_options(cmd.get("options") or [], where, problems, 0)
    elif cmd.get("description"):
        problems.append(f"{where}: user and message commands must have an empty description")
    _check_localizations(cmd, where, problems, chat_input=chat_input)
    _check_install_contexts(cmd, where, problems)
    return problems


def _check_install_contexts(cmd: dict[str, Any], where: str, problems: list[str]) -> None:
    """`integration_types` (0 GUILD_INSTALL, 1 USER_INSTALL) and `contexts` (0 GUILD, 1 BOT_DM,
    2 PRIVATE_CHANNEL), as application-commands.mdx defines them."""
    types = cmd.get("integration_types")
    if types is not None and (
        not isinstance(types, list) or not types or any(t not in (0, 1) for t in types)
    ):
        problems.append(f"{where}: integration_types {types!r} must be a non-empty list of 0 and 1")
    contexts = cmd.get("contexts")
    if contexts is not None and (not isinstance(contexts, list) or any(c not in (0, 1, 2) for c in contexts)):
        problems.append(f"{where}: contexts {contexts!r} must be a list of 0, 1 and 2")


def check_commands(commands: Any) -> list[str]:
    if not isinstance(commands, list):
        return ["bulk overwrite needs a list of commands"]
    problems: list[str] = []
    keys = [(c.get("type", 1), c.get("name")) for c in commands if isinstance(c, dict)]
    dup = sorted({str(k[1]) for k in keys if keys.count(k) > 1})
    if dup:
        problems.append(f"command names not unique: {dup}")
    if sum(1 for k in keys if k[0] == 1) > 100:
        problems.append("more than 100 slash commands")
    for i, cmd in enumerate(commands):
        problems += check_command(cmd, f"commands[{i}]")
    return problems
