#!/usr/bin/env python3
"""Wraps C# code lines longer than .editorconfig's max_line_length for C# at token boundaries.

    python3 eng/wrap-long-lines.py FILE...      # rewrites each file in place; prints what it wrapped and left

Only whitespace between tokens changes, outside literals and comments, except that a one-line plain
or interpolated string may be split at a space into two joined by '+' (not in a file that speaks of
FormattableString, where the two would be a string). Strategies, in order, each applied again to the
pieces it makes: an expression body's or switch arm's '=>'; a conditional expression or a '||',
'&&', '??' or '+' at the statement's own depth; the argument or parameter list that holds the
overflow (packed, the first arguments beside its bracket); a line of items filled to the limit; the
operators and conditionals deeper in; the string split (plain, verbatim, interpolated or raw); a
StringBuilder's 'Append(Invariant($"..."))' as several appends. A '//' comment line carries its words
over to the next. Documentation comments, preprocessor lines and multi-line literals are left as they
are: what it cannot wrap it counts, for a hand.
LineLengthTests holds the count of longer code lines, which only falls.
"""
import os
import re
import sys

def editorconfig_limit():
    """The max_line_length the repository's .editorconfig states for C#: the one figure LineLengthTests holds too."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), '.editorconfig')
    section = None
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line.startswith('['):
                section = line
            elif section == '[*.cs]' and line.startswith('max_line_length'):
                return int(line.split('=', 1)[1])
    sys.exit(f'error: {path} states no max_line_length for [*.cs]')


LIMIT = editorconfig_limit()


def scan_string(t, i):
    """t[i] starts a string literal (with its prefixes); returns the index after it."""
    j = i
    dollars = 0
    verbatim = False
    while t[j] in '$@':
        if t[j] == '$':
            dollars += 1
        else:
            verbatim = True
        j += 1
    assert t[j] == '"'
    if t.startswith('"""', j):
        q = 0
        while j + q < len(t) and t[j + q] == '"':
            q += 1
        end = t.find('"' * q, j + q)
        return end + q
    j += 1
    while j < len(t):
        c = t[j]
        if c == '\\' and not verbatim:
            j += 2
            continue
        if c == '"':
            if verbatim and j + 1 < len(t) and t[j + 1] == '"':
                j += 2
                continue
            return j + 1
        if dollars and c == '{':
            if t[j + 1] == '{':
                j += 2
                continue
            j = scan_code(t, j + 1, close='}')
            continue
        if c == '\n' and not verbatim:
            raise ValueError('newline in string')
        j += 1
    raise ValueError('unterminated string')


def scan_char(t, i):
    j = i + 1
    if t[j] == '\\':
        j += 2
        while t[j] != "'":
            j += 1
        return j + 1
    return j + 2


def is_string_start(t, i):
    m = re.match(r'[$@]{0,4}"', t[i:i + 5])
    if not m:
        return False
    if i > 0 and (t[i - 1].isalnum() or t[i - 1] == '_') and t[i] != '"':
        return False
    return True


def scan_code(t, i, close=None, spans=None):
    """Scans code from i; with close, stops after the matching close brace. Records opaque spans."""
    depth = 0
    n = len(t)
    while i < n:
        c = t[i]
        if c == '/' and t.startswith('//', i):
            end = t.find('\n', i)
            end = n if end < 0 else end
            if spans is not None:
                spans.append((i, end, 'comment'))
            i = end
            continue
        if c == '/' and t.startswith('/*', i):
            end = t.find('*/', i) + 2
            if spans is not None:
                spans.append((i, end, 'comment'))
            i = end
            continue
        if c in '$@"' and is_string_start(t, i):
            end = scan_string(t, i)
            if spans is not None:
                spans.append((i, end, 'string'))
            i = end
            continue
        if c == "'":
            end = scan_char(t, i)
            if spans is not None:
                spans.append((i, end, 'string'))
            i = end
            continue
        if close is not None:
            if c == '{':
                depth += 1
            elif c == '}':
                if depth == 0:
                    return i + 1
                depth -= 1
        i += 1
    return i


OPEN = {'(': ')', '[': ']', '{': '}'}
CLOSE = {')', ']', '}'}


def structure(line, opaque):
    """Per code character of a line: its bracket depth, with generic '<...>' counted as brackets."""
    depth = []
    d = 0
    stack = []
    i = 0
    n = len(line)
    generic_close = set()
    while i < n:
        c = line[i]
        if opaque[i]:
            depth.append(d)
            i += 1
            continue
        if c == '<' and i > 0 and (line[i - 1].isalnum() or line[i - 1] in '_') and not opaque[i - 1]:
            # A generic argument list when a matching '>' closes it over names, commas, dots and brackets.
            k = i + 1
            level = 1
            ok = True
            while k < n and level > 0:
                if opaque[k]:
                    ok = False
                    break
                ch = line[k]
                if ch == '<':
                    level += 1
                elif ch == '>':
                    level -= 1
                elif not (ch.isalnum() or ch in '_ ,.?[]()'):
                    ok = False
                    break
                k += 1
            if ok and level == 0:
                generic_close.add(k - 1)
                depth.append(d)
                d += 1
                stack.append('<')
                i += 1
                continue
        if c in OPEN:
            depth.append(d)
            d += 1
            stack.append(c)
        elif c in CLOSE or i in generic_close:
            d -= 1
            depth.append(d)
            if stack:
                stack.pop()
        else:
            depth.append(d)
        i += 1
    return depth


def indent_of(line):
    return len(line) - len(line.lstrip(' '))


def wrap(line, opaque, budget=14, split_interpolated=True):
    """Lines for one long line, or None."""
    if len(line) <= LIMIT:
        return [line]
    if budget == 0:
        return None
    depth = structure(line, opaque)
    base = indent_of(line)
    pad = ' ' * (base + 4)
    code = [not o for o in opaque]
    base_depth = depth[base] if base < len(depth) else 0

    def finish(pieces, opaques):
        out = []
        for p, o in zip(pieces, opaques):
            w = wrap(p, o, budget - 1, split_interpolated)
            if w is None:
                return None
            out.extend(w)
        return out

    def arrow():
        # 1. An expression body or a switch arm: 'head =>' then the body four columns in.
        for m in re.finditer(r' => ', line):
            k = m.start()
            if code[k + 1] and depth[k + 1] == base_depth and k + 3 <= LIMIT:
                head = line[:k] + ' =>'
                rest = line[k + 4:]
                if not rest.strip():
                    continue
                r = finish([head, pad + rest], [opaque[:k] + [False] * 3, [False] * len(pad) + opaque[k + 4:]])
                if r:
                    return r
            break

        return None

    def args():
        # 2. The argument or parameter list holding the overflow: one per line.
        candidates = []
        for i, c in enumerate(line):
            if code[i] and c in '([{' and i < LIMIT - 1:
                d = depth[i]
                k = i + 1
                commas = []
                while k < len(line) and not (code[k] and line[k] in ')]}' and depth[k] == d):
                    if code[k] and line[k] == ',' and depth[k] == d + 1:
                        commas.append(k)
                    k += 1
                if k < len(line) and commas:
                    candidates.append((d, i, k, commas))
        candidates.sort(key=lambda x: (x[0], x[1]))
        for d, i, k, commas in candidates:
            cut = [i + 1] + [c + 1 for c in commas]
            ends = commas + [k]
            pieces = [line[:i + 1]]
            opaques = [opaque[:i + 1]]
            ok = True
            for s, e in zip(cut, ends):
                while s < e and line[s] == ' ':
                    s += 1
                if s >= e:
                    ok = False
                    break
                piece = line[s:e + 1] if e != k else line[s:]
                po = opaque[s:e + 1] if e != k else opaque[s:]
                pieces.append(pad + piece)
                opaques.append([False] * len(pad) + po)
            if not ok or len(pieces[0].rstrip()) > LIMIT:
                continue
            if pieces[0].strip() in ('(', '[', '{'):
                continue
            # Packed: as many as fit on each line, the first ones beside the opening bracket.
            items = [(p[len(pad):], o[len(pad):]) for p, o in zip(pieces[1:], opaques[1:])]
            pieces, opaques = [line[:i + 1]], [opaque[:i + 1]]
            fresh = True
            for text, o in items:
                joint = ' ' if not fresh or pieces[-1].endswith('{') else ''
                if len(pieces[-1]) + len(joint) + len(text) <= LIMIT:
                    pieces[-1] += joint + text
                    opaques[-1] = opaques[-1] + [False] * len(joint) + o
                else:
                    pieces.append(pad + text)
                    opaques.append([False] * len(pad) + o)
                fresh = False
            r = finish(pieces, opaques)
            if r:
                return r

        return None

    def binary(top):
        # 3. A top-level binary operator: before it, four columns in.
        for ops in (('||',), ('&&',), ('??',), ('or',), ('and',), ('+',)):
            spots = []
            for m in re.finditer(r' (\|\||&&|\?\?|or|and|\+) ', line):
                if m.group(1) in ops and code[m.start() + 1] and line[:m.start()].strip():
                    spots.append((depth[m.start() + 1], m.start()))
            if not spots:
                continue
            low = min(s[0] for s in spots)
            if top and low > base_depth + statement:
                continue
            at = [s[1] for s in spots if s[0] == low]
            bounds = [0] + [k + 1 for k in at]
            stops = at + [len(line)]
            pieces = [(pad if n else '') + line[b:e] for n, (b, e) in enumerate(zip(bounds, stops))]
            opaques = [([False] * len(pad) if n else []) + opaque[b:e] for n, (b, e) in enumerate(zip(bounds, stops))]
            if ops[0] in ('or', 'and', '+'):
                # Alternatives of a pattern and the parts of a sum are packed, as many as fit on a line.
                packed, packed_opaques = [pieces[0]], [opaques[0]]
                for piece, o in zip(pieces[1:], opaques[1:]):
                    if len(packed[-1]) + 1 + len(piece) - len(pad) <= LIMIT:
                        packed[-1] += ' ' + piece[len(pad):]
                        packed_opaques[-1] = packed_opaques[-1] + [False] + o[len(pad):]
                    else:
                        packed.append(piece)
                        packed_opaques.append(o)
                pieces, opaques = packed, packed_opaques
            if len(pieces[0]) <= LIMIT:
                r = finish(pieces, opaques)
                if r:
                    return r

        return None

    def ternary(top):
        # 3b. A conditional expression: before its '?' and its ':', four columns in.
        if not re.match(r'\s*(case |.*\b(class|record|struct|interface|enum)\b)', line):
            qs = [(depth[m.start() + 1], m.start()) for m in re.finditer(r' \? ', line) if code[m.start() + 1]]
            cs = [(depth[m.start() + 1], m.start()) for m in re.finditer(r' : ', line) if code[m.start() + 1]]
            for dq, q in sorted(qs):
                if top and dq != base_depth:
                    break
                match = [c for dc, c in cs if dc == dq and c > q]
                if match:
                    c = match[0]
                    pieces = [line[:q], pad + line[q + 1:c], pad + line[c + 1:]]
                    opaques = [opaque[:q], [False] * len(pad) + opaque[q + 1:c], [False] * len(pad) + opaque[c + 1:]]
                    if len(pieces[0]) <= LIMIT and pieces[0].strip():
                        r = finish(pieces, opaques)
                        if r:
                            return r
                    break

        return None

    def fill():
        # 3c. A line of items (a list's or an argument list's continuation, or a list that begins the line): filled to the limit.
        for level, indent in ((base_depth, base), (base_depth + 1, base + 1)):
            if level > base_depth and line[base] not in '[(':
                continue
            commas = [k for k, ch in enumerate(line) if ch == ',' and code[k] and depth[k] == level]
            if not commas:
                continue
            cuts = []
            start = 0
            previous = None
            for k in commas + [len(line) - 1]:
                width = (k + 1 - start) + (indent if start else 0) - (len(line[start:]) - len(line[start:].lstrip(' ')) if start else 0)
                if width > LIMIT and previous is not None:
                    cuts.append(previous + 1)
                    start = previous + 1
                previous = k if k != len(line) - 1 else previous
            if not cuts:
                continue
            pieces, opaques = [], []
            for b, e in zip([0] + cuts, cuts + [len(line)]):
                seg = line[b:e]
                lead = len(seg) - len(seg.lstrip(' ')) if b else 0
                pieces.append((' ' * indent if b else '') + seg[lead:])
                opaques.append(([False] * indent if b else []) + opaque[b + lead:e])
            if all(len(p) <= LIMIT for p in pieces):
                return pieces

        return None

    def chain():
        # 3d. A chain of calls: before each '.Name(' that follows a ')' at the line's own depth, four columns in.
        dots = [m.start() + 1 for m in re.finditer(r'\)\.[A-Za-z_]\w*[(<]', line) if code[m.start() + 1] and depth[m.start() + 1] == base_depth]
        if not dots:
            return None
        bounds = [0] + dots
        pieces = [(pad if n else '') + line[b:e] for n, (b, e) in enumerate(zip(bounds, dots + [len(line)]))]
        opaques = [([False] * len(pad) if n else []) + opaque[b:e] for n, (b, e) in enumerate(zip(bounds, dots + [len(line)]))]
        if len(pieces[0]) > LIMIT:
            return None
        return finish(pieces, opaques)

    def literal():
        # 4. A one-line string literal (plain, verbatim, interpolated or raw) split at a space outside its holes,
        # into two of the same kind joined by '+'.
        i = 0
        while i < len(line):
            if not (opaque[i] and (i == 0 or not opaque[i - 1]) and line[i] in '$@"'):
                i += 1
                continue
            e = i
            while e < len(line) and opaque[e]:
                e += 1
            lit = line[i:e]
            m = re.match(r'([$@]*)("+)', lit)
            i, start = e, i
            if not m or line[e:e + 2] == 'u8' or start >= LIMIT - 10 or e <= LIMIT:
                continue
            prefix, quotes = m.group(1), m.group(2)
            dollars = prefix.count('$')
            if quotes == '""':
                continue
            if len(quotes) < 3:
                quotes = '"'
            if dollars and not split_interpolated:
                continue
            body_start = start + len(prefix) + len(quotes)
            body_end = e - len(quotes)
            verbatim = '@' in prefix
            # Where the second literal may begin: after a space or a comma, or at a hole's opening brace.
            cuts = []
            clauses = []
            hole = 0
            k = body_start
            while k < body_end:
                ch = line[k]
                if ch == '\\' and not verbatim and len(quotes) == 1:
                    k += 2
                    continue
                if dollars and ch == '{':
                    if len(quotes) == 1 and line[k + 1] == '{' and hole == 0:
                        k += 2
                        continue
                    if hole == 0:
                        cuts.append(k)
                    hole += 1
                elif dollars and ch == '}' and hole:
                    hole -= 1
                elif ch in ' ,' and hole == 0:
                    cuts.append(k + 1)
                    if ch == ' ' and line[k - 1] in ',;:.)':
                        clauses.append(k + 1)
                k += 1
            fits = [c for c in cuts if c + len(quotes) + 2 <= LIMIT and body_start + 10 < c < body_end and line[c] != '"' and line[c - 1] != '"']
            if not fits:
                continue
            best = max(fits)
            near = [c for c in clauses if c in fits and best - c < 50]
            if near:
                best = max(near)
            best -= 1
            head = line[:best + 1] + quotes + ' +'
            # A literal that begins its line goes on in the same column; one after code, four columns in.
            same = ' ' * base if not line[:start].strip() else pad
            rest = same + prefix + quotes + line[best + 1:]
            ho = opaque[:best + 1] + [True] * len(quotes) + [False, False]
            ro = [False] * len(same) + [True] * (len(prefix) + len(quotes)) + opaque[best + 1:]
            r = finish([head, rest], [ho, ro])
            if r:
                return r
        return None

    def appends():
        # 5. 'sb.Append(Invariant($"..."));' as several appends of the literal's parts, at spaces or between tags.
        m = re.match(r'^(\s*)([\w.]+)\.Append\(Invariant\(\$"(.*)"\)\);$', line)
        if not m or not all(opaque[m.start(3) - 2:m.end(3) + 1]):
            return None
        head = f'{m.group(1)}{m.group(2)}.Append(Invariant($"'
        room = LIMIT - len(head) - len('"));')
        body = m.group(3)
        parts, hole, start, cut = [], 0, 0, None
        k = 0
        while k < len(body):
            ch = body[k]
            if ch == '\\':
                k += 2
                continue
            if ch == '{':
                if body[k + 1:k + 2] == '{' and hole == 0:
                    k += 2
                    continue
                hole += 1
            elif ch == '}' and hole:
                hole -= 1
            elif hole == 0 and (ch == ' ' or (ch == '<' and k > 0 and body[k - 1] == '>')):
                cut = k + 1 if ch == ' ' else k
            if k - start >= room - 1:
                if cut is None or cut <= start:
                    return None
                parts.append(body[start:cut])
                start = cut
                cut = None
            k += 1
        parts.append(body[start:])
        if len(parts) < 2 or any(len(head) + len(p) + 4 > LIMIT for p in parts):
            return None
        return [f'{head}{p}"));' for p in parts]

    statement = 1 if re.match(r'\s*(if|while|else if|return|foreach|using|lock) \(', line) else 0
    for attempt in (appends, arrow, lambda: ternary(True), lambda: binary(True), chain, args, fill, lambda: binary(False), lambda: ternary(False), literal):
        r = attempt()
        if r:
            return r
    return None


def process(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    spans = []
    # Two interpolated strings joined by '+' are a string, not a FormattableString.
    split_interpolated = 'FormattableString' not in text
    scan_code(text, 0, spans=spans)
    opaque = [False] * len(text)
    comment = [False] * len(text)
    for s, e, kind in spans:
        for k in range(s, e):
            opaque[k] = True
            if kind == 'comment':
                comment[k] = True
    out = []
    pos = 0
    changed = 0
    left = 0
    for line in text.split('\n'):
        s, e = pos, pos + len(line)
        pos = e + 1
        stripped = line.lstrip()
        if len(line) > LIMIT and stripped.startswith('//') and not stripped.startswith('///') and comment[s + len(line) - len(stripped)]:
            # A comment line: its words carried over to comment lines of the same indentation.
            lead = line[:len(line) - len(stripped)] + '// '
            words = stripped[2:].strip().split(' ')
            lines = [lead + words[0]]
            for word in words[1:]:
                if len(lines[-1]) + 1 + len(word) <= LIMIT:
                    lines[-1] += ' ' + word
                else:
                    lines.append(lead + word)
            out.extend(lines)
            changed += 1
            continue
        if len(line) <= LIMIT or stripped.startswith(('///', '//', '#', '[LoggerMessage')):
            out.append(line)
            if len(line) > LIMIT and not line.lstrip().startswith('///'):
                left += 1
            continue
        o = opaque[s:e]
        crosses = (s > 0 and opaque[s - 1] and opaque[s]) or (e < len(text) and opaque[e - 1] and opaque[e])
        if crosses or any(comment[s:e]):
            out.append(line)
            left += 1
            continue
        w = wrap(line, o, split_interpolated=split_interpolated)
        if w is None:
            out.append(line)
            left += 1
        else:
            out.extend(w)
            changed += 1
    new = '\n'.join(out)
    if new != text:
        with open(path, 'w', encoding='utf-8') as f:
            f.write(new)
    return changed, left


if __name__ == '__main__':
    total = [0, 0]
    for p in sys.argv[1:]:
        c, l = process(p)
        total[0] += c
        total[1] += l
        if c or l:
            print(f'{c:4d} wrapped {l:4d} left {p}')
    print(f'wrapped {total[0]}, left {total[1]}')
