"""catalogue.py: what the test checks read from the product's catalogue
(tracepoints/entry_points.h) instead of keeping lists of their own: the
kind of memory each allocation and free entry point handles, and the names
of a library call's arguments and params (trace format 3's events carry
neither). Must never hold a name or kind by hand."""
import os
import re

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tracepoints',
                      'entry_points.h')


def _text():
    with open(HEADER) as f:
        return f.read().replace('\\\n', ' ')


def _list_macro(text, name):
    """The body of #define NAME(X) ..., backslashes already joined."""
    start = text.index('#define %s(X)' % name)
    return text[start:text.index('\n', start)]


def api_names():
    """The names of the entry points the dnntrace_api provider traces."""
    body = _list_macro(_text(), 'DNNTRACE_API_ENTRIES')
    return [m.group(1) for m in re.finditer(r'X\(\s*\d+,\s*(\w+),', body)]


def memory_kinds():
    """api name -> kind of memory ('device', 'stream_ordered', ...)."""
    body = _list_macro(_text(), 'DNNTRACE_MEMORY_ENTRIES')
    return {m.group(1): m.group(2).lower() for m in re.finditer(r'X\((\w+),\s*(\w+)\)', body)}


def _split_top(text):
    """Top-level comma-separated items of text (commas in strings kept)."""
    items, depth, quoted, current = [], 0, False, ''
    for ch in text:
        if quoted:
            quoted = ch != '"'
        elif ch == '"':
            quoted = True
        elif ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        elif ch == ',' and depth == 0:
            items.append(current.strip())
            current = ''
            continue
        current += ch
    items.append(current.strip())
    return items


def _string(expression, macros):
    """A C string expression: adjacent literals and macros naming literals."""
    out = ''
    for m in re.finditer(r'"([^"]*)"|(\w+)', expression):
        out += m.group(1) if m.group(1) is not None else macros[m.group(2)]
    return out


def lib_names():
    """api name -> (argument names, param names), as the catalogue writes
    them ("pack..." and "(uid,attribute)..." patterns included)."""
    text = _text()
    macros = {m.group(1): m.group(2) for m in
              re.finditer(r'#define (DT_\w+) "([^"]*)"', text)}
    body = _list_macro(text, 'DNNTRACE_LIB_ENTRIES')
    names = {}
    for m in re.finditer(r'X\(((?:[^()"]|"[^"]*")*)\)', body):
        _, api, args, params = _split_top(m.group(1))
        names[api] = (_string(args, macros), _string(params, macros))
    return names


def _expand(pattern, count):
    """The comma-separated names of pattern for count values: a name ending
    in "..." repeats for the values left over by the others; "(a,b)..." a
    pair."""
    if not pattern:
        return []
    fixed = [n for n in re.findall(r'\([^)]*\)\.\.\.|[^,]+', pattern)]
    repeated = [n for n in fixed if n.endswith('...')]
    if not repeated:
        return fixed
    (rep,) = repeated
    unit = rep[:-3].strip('()').split(',')
    left = count - (len(fixed) - 1)
    times = max(left // len(unit), 0)
    out = []
    for n in fixed:
        out += unit * times if n == rep else [n]
    return out


def arg_names(api, count):
    """The names of api's count arguments (the catalogue's, patterns expanded)."""
    return _expand(lib_names()[api][0], count)


def param_names(api, count):
    """The names of api's count params."""
    return _expand(lib_names()[api][1], count)
