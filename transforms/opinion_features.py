"""Sentence features of the trained opinion-split route, and the Board-voice veto it applies before the model.

The rules (`opinions.RuleSplitter`) attribute a sentence only when a cue they list fires; on real prose the
parties are named in ways no list foresees. These features describe what a reader uses instead, in forms that
carry over to unseen decisions: which party is the sentence's subject and what kind of verb follows it, a
"that"-clause of reported speech, the record paper a citation names however it is written ("(Br. 5)",
"Ans. 4", "(Appeal Br. at 5.)", "[answer, page 9]", "(EA 6)"), a quotation, the sentence's place in its
paragraph, the rules' roles of its neighbours, and the party the paragraph's first sentence names (an argument
often runs over several sentences after the one that names the party).

`board_veto` is the leakage policy of the route: the rules' Board voice (`opinions.board_voice`) plus the
Board's evaluations of a party that name no first person ("The examiner has not set forth a prima facie
case.", "The appellants' contrary view is clearly erroneous.", "The Examiner has the better position."), its
framing of the issue ("The issue is whether ... the Examiner erred"), a party weighed against itself ("even the
examiner admits") and its remarks on the briefing ("... is only briefly mentioned in the brief").
A vetoed sentence is the Board's whatever the model says.
"""
from __future__ import annotations

import re

from transforms.opinions import board_voice, cited_party, paper_tail

FEATURES_VERSION = 3
_WORD = re.compile(r"[a-z][a-z'’]*|\d+")
_PARTY = re.compile(r"(?i)\b(?:(?P<e>examiner)|(?P<a>appellants?|applicants?))\b")
# the paper a citation names, however a decision writes it
_CITES = {"br": r"\b(?:R|App\. |Appeal |Reply |principal )?Br\.?\s?(?:at\s)?\d|\bRBr\d|\bbrief\b|\brequest, page",
          "ans": r"\bAns\.|\banswer\b|\bEA\s?\d", "act": r"\bFinal (?:Act|Rej)\.|\bfinal (?:rejection|office action)\b|"
          r"\bOffice Act|\bNon-Final|\bFOA\s?\d", "spec": r"\bSpec\.|\bspecification\b", "fig": r"\bFigs?\.",
          "col": r"\bcol\.|\bcolumn\b|¶|\bpara(?:graph)?\b", "case": r"\b(?:In re|v\.) [A-Z]|\bF\.\s?[234]d\b|\bUSPQ"}
_CITE_RX = {k: re.compile(p, re.I if k in ("br", "ans", "spec") else 0) for k, p in _CITES.items()}
# a closing citation of a party's paper, with "at" and a full stop inside the bracket: "(Appeal Br. at 5.)"
_CLOSING = re.compile(r"[(\[]\s*(?:see,? )?(?P<paper>[^()\[\]]{0,40}?)\s*(?:at\s)?[\d\u2013\-, ]+\.?\s*[)\]]\.?\s*\d{0,2}$", re.I)
_APP_PAPER = re.compile(r"(?i)\b(?:appeal |app\. |reply |principal |main )?(?:br\.?|brief)$|\brequest,? page")
_EX_PAPER = re.compile(r"(?i)\b(?:ans\.?|answer|final act\.?|final rejection|office action|EA)$")
# a party as the subject of the sentence's first clause: "(With respect to claim 5,) the examiner (also) finds"
_SUBJECT = re.compile(r"^(?:[^,;]{0,80}, )?(?:the )?(?:(?P<e>examiner)|(?P<a>appellants?|applicants?))(?:['’]s?)? "
                      r"(?:(?P<adv>\w+ly|also|further|then|again|now|still|instead|never|not) )?(?P<verb>\w+)", re.I)
_REPORTING = re.compile(r"(?i)^(?:argu|contend|assert|submit|maintain|urg|alleg|stat|not|explain|point|find|found|"
                        r"conclud|determin|rel|respond|counter|repl|agree|disagree|concede|admit|characteriz|"
                        r"regard|view|believ|posit|insist|emphasiz|take|took|cite|refer|indicat|propos|reason|"
                        r"characteriz|identif|interpret|constru|acknowledg|dispute|challeng|traverse|observ|add)")
_THAT = re.compile(r"(?i)\b(?:examiner|appellants?|applicants?)\b(?:\W+\w+){0,6}?\W+that\b")
_FAILS = re.compile(r"(?i)^(?:[^,;\"“]{0,80}, )?(?:the )?(?:examiner|appellants?) "
                    r"(?:\w+ly )?(?:has not|have not|had not|did not|does not|do not|(?:has |have |had )?(?:failed|fails|never|erred)|"
                    r"cannot|could not)\b")
# the Board's evaluations that name no first person (the veto; the rules' `board_voice` comes first)
# a sentence with no reporting verb in it: what it says is the Board's, not a party's reported argument
_UNREPORTED = r"(?!.*\b(?:argu|contend|assert|urg|submit|maintain|allege)\w*\b)"
_VETO = {
    "judges_party": _FAILS,
    "party_right": re.compile(r"(?i)\b(?:appellants?|examiner) (?:is|are|was|were) (?:correct|right|incorrect|wrong|"
                              r"mistaken|in error)\b"),
    "judges_view": re.compile(r"(?i)\b(?:appellants?|examiner)(?:['’]s?)? (?:contrary |erroneous )?(?:view|position|"
                              r"argument|contention|reasoning|analysis|response|rationale)s? (?:is|are|was|were) "
                              r"(?:clearly |simply |therefore |thus )?(?:erroneous|wrong|flawed|incorrect|"
                              r"misplaced|unsound|mistaken|deficient|more laconic|not)\b|\bclearly erroneous\b|"
                              r"^The problem with\b|\b(?:has|have|had) the (?:better|stronger|weaker) "
                              r"(?:position|argument|view|case)\b|^It is (?:the )?(?:well settled|burden|examiner['’]s burden|"
                              r"incumbent)|\bit is incumbent upon\b"),
    # the Board framing the question or weighing a party against itself: "The issue is whether Appellants have
    # shown that the Examiner erred ...", "even the examiner admits that ..."
    "frames_issue": re.compile(r"(?i)^(?:The|A|One|Another) (?:\w+ )?(?:issue|question)s? (?:\w+ )?(?:is|are|was|were|"
                               r"raised is|presented is) whether\b|\b(?:examiner|appellants?) erred\b|"
                               r"\beven (?:the )?(?:examiner|appellants?)\b"),
    # the Board on what a party or a reference lacks, unreported: "the examiner has provided no evidence that ...",
    # "However, Ogata provides no guidance as to ..."
    "lacks": re.compile(rf"(?i)^{_UNREPORTED}.*\b(?:has |have )?"
                        r"(?:provides?|provided|offers?|offered|gives?|gave|cites?|cited|articulated?|articulates|advanced?|"
                        r"advances) no (?:\w+ )?(?:guidance|evidence|"
                        r"reason|teaching|suggestion|support|basis|explanation)\b"),
    # the Board on the briefing itself: "... is only briefly mentioned in the entire discussion in the brief", "The
    # present answer does not actually reflect any commentary regarding the argument ..."
    "on_the_briefing": re.compile(r"(?i)^(?:the |this |that )?(?:present |examiner['’]s |principal |main |reply |appeal )?"
                                  r"(?:answer|brief)s? (?:\w+ )?(?:does|do|did) not\b|\bonly (?:briefly|in passing)\b|"
                                  r"\b(?:mentioned|discussed|addressed) (?:only )?(?:briefly|in passing)\b|"
                                  r"\bin (?:but|only) (?:one|two|three|a few|a single) (?:places?|instances?|"
                                  r"sentences?|passages?)\b"),
    # the Board presenting the record itself: "The examiner's only statement with regard to the anticipation appears
    # at page 3 of the Answer ...", "As evident by a review of page 6 ... of appellants' specification, ..."
    "presents_record": re.compile(r"^(?:The |This )?(?:[Ee]xaminer|[Aa]ppellants?)['’]s? only (?:statement|explanation|"
                                  r"discussion|mention|reasoning|rationale|finding)\b|^As (?:is )?(?:evident|evidenced|"
                                  r"apparent) (?:by|from)\b"),
    # the law the Board applies, cited with no party named: "A claimed invention is unpatentable if ... 35 U.S.C.
    # § 103(a); Graham v. John Deere Co., 383 U.S. 1, 14 ...", or a burden weighed: "... is insufficient to satisfy
    # the examiner's initial burden of proof"
    "states_law": re.compile(r"^(?!.*\b(?i:appellants?|applicants?|examiner)\b).*(?:\b(?:In re|Ex parte) [A-Z]|"
                             r"\b[A-Z][\w.'&-]* v\. [A-Z])[^;]{0,120}\b\d+ (?:F\.(?: ?(?:2d|3d|4th))?|U\.S\.|USPQ(?:2d)?) ?\d"),
    "weighs_burden": re.compile(rf"(?i)^{_UNREPORTED}.*\b(?:satisf|meet|"
                                r"met\b|carr|discharg)\w* (?:the |an? |its |his |her |their )?(?:examiner['’]s |"
                                r"appellants?['’]s? )?(?:initial )?burden\b"),
}


def board_veto(sentence: str) -> str | None:
    """Why the sentence is the Board's whatever the model says (None: no veto)."""
    if board := board_voice(sentence):
        return board
    return next((name for name, rx in _VETO.items() if rx.search(sentence)), None)


def closing_paper(sentence: str) -> str | None:
    """The party whose paper a closing bracketed citation names, "(Appeal Br. at 5.)" included."""
    if role := paper_tail(sentence):
        return role
    if m := _CLOSING.search(sentence):
        paper = m.group("paper").strip().rstrip(",")
        if _APP_PAPER.search(paper):
            return "appellant_arguments"
        if _EX_PAPER.search(paper):
            return "examiner_findings"
    return None


def _words(sentence: str) -> list[str]:
    return _WORD.findall(sentence.lower())


def _bucket(n: int, edges: tuple[int, ...] = (8, 16, 32)) -> int:
    return sum(n > e for e in edges)


def _subject(sentence: str) -> tuple[str, str] | None:
    """(party, verb kind) when a party is the subject of the sentence's first clause."""
    m = _SUBJECT.search(sentence)
    if not m:
        return None
    party = "examiner" if m.group("e") else "appellant"
    verb = m.group("verb").lower()
    neg = (m.group("adv") or "").lower() in ("never", "not") or verb in ("has", "have", "had", "did", "does", "do") and \
        bool(re.match(r"(?i)(?:has|have|had|did|does|do) (?:not|never)\b", sentence[m.start("verb"):]))
    kind = "neg" if neg else "report" if _REPORTING.match(verb) else "aux" if verb in (
        "has", "have", "had", "is", "are", "was", "were", "does", "do", "did", "would", "will", "may", "should",
        "must", "can", "could") else "other"
    return party, kind


def features(section: str, sents: list[str], roles: list[tuple[str, str | None]], i: int,
             rules: bool = False, lexical: bool = True) -> list[str]:
    """Binary feature names of sentence `i` of one paragraph (`roles`: the rules' (role, cue) per sentence).
    `rules`: the rules' own role and cue for the sentence too (they fit the decisions the rules were written on,
    so a model trained with them learns to copy the rules); `lexical`: every word and word pair."""
    sent, (rule, cue) = sents[i], roles[i]
    words = _words(sent)
    n = len(sents)
    out = [f"sec={section}", f"pos={'only' if n == 1 else 'first' if i == 0 else 'last' if i == n - 1 else 'mid'}",
           f"len={_bucket(len(words))}"]
    if rules:
        out += [f"rule={rule}", f"cue={(cue or 'none').split(':')[0]}", f"rule_sec={rule}|{section}"]
    prev = roles[i - 1] if i else ("START", "START")
    nxt = roles[i + 1] if i + 1 < n else ("END", "END")
    out += [f"prev_rule={prev[0]}", f"next_rule={nxt[0]}", f"prev_cue={(prev[1] or 'none').split(':')[0]}",
            f"par_first_rule={roles[0][0] if i else 'self'}",
            f"par_last_paper={cited_party(sents[-1]) or closing_paper(sents[-1])}",
            f"tail={closing_paper(sent)}", f"cited={cited_party(sent)}"]
    if i + 1 < n:
        out.append(f"next_paper={cited_party(sents[i + 1]) or closing_paper(sents[i + 1])}")
    if i:
        out.append(f"prev_paper={cited_party(sents[i - 1]) or closing_paper(sents[i - 1])}")
        if ps := _subject(sents[i - 1]):
            out.append(f"prev_subj={ps[0]}|{ps[1]}")
    if subj := _subject(sent):
        out += [f"subj={subj[0]}", f"subj={subj[0]}|{subj[1]}"]
    elif i and (first := _subject(sents[0])):
        out.append(f"par_subj={first[0]}|{first[1]}")
    if m := _PARTY.search(sent):
        party = "examiner" if m.group("e") else "appellant"
        at = _bucket(len(_words(sent[:m.start()])), (0, 3, 10))
        out += [f"party_first={party}", f"party_at={party}|{at}"]
        if _THAT.search(sent):
            out.append(f"party_that={party}")
    if re.search(r"[\"“”]", sent):
        out.append("quote")
    out += [f"party={k}" for k, rx in (("e", r"(?i)\bexaminer"), ("a", r"(?i)\b(?:appellant|applicant)")) if re.search(rx, sent)]
    out += [f"paper={k}" for k, rx in _CITE_RX.items() if rx.search(sent)]
    if sent.endswith(":"):
        out.append("ends_colon")
    out += [f"f1={w}" for w in words[:1]] + [f"f2={' '.join(words[:2])}"] * (len(words) > 1)
    if lexical:
        out += [f"w={w}" for w in set(words)] + [f"b={a} {b}" for a, b in set(zip(words, words[1:]))]
    return out
