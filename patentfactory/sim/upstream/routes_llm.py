"""An OpenAI-compatible chat-completions endpoint for the replica, answering from the generated world's truth.

`POST /v1/chat/completions` (and `/chat/completions`) recognises the two instructions of the LLM routes
(patentfactory/prompts/) by their title line and answers deterministically:
- `opinion_split`: the request's sentences with their true roles from `truth/ptab_opinions.parquet` (the decision
  is found by word overlap; a sentence is cut where a true sentence matches the text verbatim, else by
  punctuation, and takes the role of its most similar true sentence). Text of no known decision gets each
  section's default role, as a model that knows nothing would.
- `outline_bullets`: n phrases, one per equal span of the section's words: a verb and the span's most frequent
  content words in salience order (never 6 words of the source in a row).
- `outline_chunk`: the same per heading of a chunk ('## TITLE (n bullet points)'), as `{"sections": [[...], ...]}`.
Models: `replica` answers well; `replica-plain` refuses `response_format` json_schema (HTTP 400) and fences its
JSON, like servers without structured output; `replica-sloppy` answers wrongly the first time (an invented
sentence, a copied bullet) and well when asked again; `replica-broken` always answers wrongly; `replica-small`
refuses a prompt over 512 tokens with vLLM's HTTP 400 "maximum context length" message. The server's
fault injection (429 with Retry-After, 5xx, stalls, truncation) applies to these paths as to any other.
`GET /v1/models` lists the models.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pyarrow.parquet as pq

from transforms.opinions import sentences as split_sentences

from .server import Request, Response, route

MODELS = ("replica", "replica-plain", "replica-sloppy", "replica-broken", "replica-small")
SMALL_CONTEXT = 512  # tokens (characters / 4) of `replica-small`
HEADINGS = {"STATEMENT OF THE CASE": "statement_of_the_case", "ANALYSIS": "analysis"}
DEFAULT_ROLE = {"statement_of_the_case": "facts", "analysis": "ptab_opinion"}
VERBS = ("describe", "explain", "detail", "define", "outline", "present", "discuss", "specify")
STOP = frozenset("the a an of and or to in for on with by as is are be was were that this which it its at from may "
                 "can each such said wherein thereof further also more than into one two not has have been these "
                 "those other when where first second least".split())
INVENTED = "The Board further notes that the claimed invention was widely praised."
_SENTENCE_END = re.compile(r"[.!?:;][\"')\]\u201d\u2019]*$")
_TOKENS = re.compile(r"[a-z0-9]+")
_CONTENT = re.compile(r"[A-Za-z][A-Za-z0-9-]{2,}")
served: Counter[str] = Counter()  # completions answered, per model (tests read it: a rerun sends nothing)
_lock = threading.Lock()


def _norm(text: str) -> str:
    return " ".join(text.split())


def _toks(text: str) -> frozenset[str]:
    return frozenset(_TOKENS.findall(text.lower()))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / max(len(a | b), 1)


Truth = list[list[tuple[str, str, frozenset[str]]]]


@lru_cache(maxsize=4)
def _truth(world: Path) -> tuple[Truth, list[frozenset[str]]]:
    """Per decision of the world: its (normalised sentence, role, tokens), and all its tokens."""
    path = world / "truth" / "ptab_opinions.parquet"
    if not path.exists():
        return [], []
    rows = pq.read_table(path, columns=["sentences", "roles"]).to_pylist()
    docs = [[(_norm(s), r, _toks(s)) for s, r in zip(row["sentences"], row["roles"])] for row in rows]
    return docs, [frozenset().union(*(t for _, _, t in d)) for d in docs]


def _parse_split_request(user: str) -> list[tuple[str, list[str]]]:
    parts: list[tuple[str, list[str]]] = []
    for line in (ln.strip() for ln in user.splitlines()):
        if line in HEADINGS:
            parts.append((HEADINGS[line], []))
        elif line and parts:
            parts[-1][1].append(line)
    return parts


def _pieces(par: str, doc: list[tuple[str, str, frozenset[str]]]) -> list[str]:
    """The paragraph cut into sentences: a true sentence where one matches at the cursor, else punctuation."""
    out, off = [], 0
    known = sorted({s for s, _, _ in doc if s}, key=len, reverse=True)
    while off < len(par):
        rest = par[off:].lstrip()
        off += len(par[off:]) - len(rest)
        if not rest:
            break
        hit = next((s for s in known if rest.startswith(s)), None)
        piece = hit or split_sentences(rest)[0]
        pos = rest.find(piece)
        piece = rest[:pos + len(piece)] if pos >= 0 else rest
        out.append(piece)
        off += len(piece)
    return out


def split_answer(world: Path, user: str) -> dict:
    parts = _parse_split_request(user)
    asked = _toks(" ".join(p for _, paras in parts for p in paras))
    docs, vocab = _truth(world)
    scored = [(_jaccard(asked, v), -i) for i, v in enumerate(vocab)]
    best = max(scored, default=(0.0, 0))
    doc = docs[-best[1]] if best[0] >= 0.3 else []
    sentences = []
    for section, paras in parts:
        for par in paras:
            if len(par) < 80 and not _SENTENCE_END.search(par):  # a sub-heading: left out, as the instruction says
                continue
            role = None
            for piece in _pieces(par, doc):
                toks = _toks(piece)
                sim, true_role = max(((_jaccard(toks, t), r) for _, r, t in doc), default=(0.0, None))
                role = true_role if sim >= 0.5 else role or DEFAULT_ROLE[section]
                sentences.append({"text": piece, "role": role})
    return {"sentences": sentences}


def _bullets(text: str, n: int) -> list[str]:
    words = _CONTENT.findall(text)
    bullets = []
    for k in range(n):
        span = words[len(words) * k // n:len(words) * (k + 1) // n]
        freq = Counter(w.lower() for w in span if w.lower() not in STOP)
        first = {w: i for i, w in reversed(list(enumerate(w.lower() for w in span)))}
        top = sorted(freq, key=lambda w: (-freq[w], first[w]))[:3]
        bullets.append(f"{VERBS[k % len(VERBS)]} {' '.join(top) or 'further details'}")
    return bullets


def bullet_answer(user: str) -> dict:
    head, _, text = user.partition("\n\n")
    return {"bullets": _bullets(text, int(head.split("=", 1)[1]))}


_CHUNK_HEADING = re.compile(r"^#+ .*\((\d+) bullet points\)$")


def chunk_answer(user: str) -> dict:
    """outline_chunk: per heading of the chunk ('## TITLE (n bullet points)'), n bullets over its text."""
    sections: list[tuple[int, list[str]]] = []
    for line in user.splitlines():
        m = _CHUNK_HEADING.match(line)
        if m:
            sections.append((int(m.group(1)), []))
        elif sections and line.strip():
            sections[-1][1].append(line)
    return {"sections": [_bullets(" ".join(text), n) if n else [] for n, text in sections]}


def _sloppy(task: str, obj: dict, user: str) -> dict:
    """A wrong answer of the kind real models give: an invented sentence, a bullet copied from the text."""
    if task == "opinion_split":
        return {"sentences": [*obj["sentences"], {"text": INVENTED, "role": "ptab_opinion"}]}
    if task == "outline_chunk":
        text = next(line for line in user.splitlines()[3:] if line.strip() and not line.startswith("#"))
        first = next(k for k, b in enumerate(obj["sections"]) if b)
        lists = [list(b) for b in obj["sections"]]
        lists[first][0] = " ".join(text.split()[:8])
        return {"sections": lists}
    copied = " ".join(user.partition("\n\n")[2].split()[:8])
    return {"bullets": [copied, *obj["bullets"][1:]]}


def _error(status: int, message: str) -> Response:
    return Response.json({"error": {"message": message, "type": "invalid_request_error", "code": status}}, status)


@route("GET", r"(?:/v1)?/models")
def models(req: Request) -> Response:
    return Response.json({"object": "list", "data": [{"id": m, "object": "model", "owned_by": "replica"}
                                                     for m in MODELS]})


@route("POST", r"(?:/v1)?/chat/completions")
def chat_completions(req: Request) -> Response:
    try:
        body = json.loads(req.body or b"{}")
        model, messages = body["model"], body["messages"]
        system, user = messages[0]["content"], messages[1]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return _error(400, "a chat completion needs model and messages (system, user)")
    if model not in MODELS:
        return _error(404, f"The model `{model}` does not exist")
    fmt = (body.get("response_format") or {}).get("type")
    if model == "replica-plain" and fmt == "json_schema":
        return _error(400, "response_format of type json_schema is not supported by this server")
    prompt = sum(len(m.get("content") or "") for m in messages) // 4
    if model == "replica-small" and prompt > SMALL_CONTEXT:
        return _error(400, f"This model's maximum context length is {SMALL_CONTEXT} tokens. However, you requested "
                           f"{prompt} tokens in the messages. Please reduce the length of the messages.")
    task = system.lstrip("# ").split(" ", 1)[0]
    if task == "opinion_split":
        obj = split_answer(req.world, user)
    elif task == "outline_bullets":
        obj = bullet_answer(user)
    elif task == "outline_chunk":
        obj = chunk_answer(user)
    else:
        return _error(400, "the replica answers the opinion_split, outline_bullets and outline_chunk instructions "
                           "only")
    if model == "replica-broken" or (model == "replica-sloppy" and len(messages) <= 2):
        obj = _sloppy(task, obj, user)
    content = json.dumps(obj, ensure_ascii=False)
    if model == "replica-plain":
        content = f"```json\n{content}\n```"
    with _lock:
        served[model] += 1
    return Response.json({
        "id": "chatcmpl-" + hashlib.sha256(req.body).hexdigest()[:24], "object": "chat.completion", "created": 0,
        "model": model, "system_fingerprint": "replica",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": len(content) // 4,
                  "total_tokens": prompt + len(content) // 4}})
