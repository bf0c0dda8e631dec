"""Opinion splitting of PTAB decisions: sections by headings, sentences by spaCy, roles by cue phrases.

The paper split opinions with an LLM; we use a transparent rule-based splitter so every role can be
explained by the cue that fired. The leakage policy comes first: a sentence in the Board's voice
(`BOARD_VOICE`: "we ...", "is not persuasive", "the rejection ... is sustained", "Accordingly, ...",
"as discussed above" ...) is `ptab_opinion` whatever precedes it, as is every sentence under a
sub-heading of the Board's own (NEW GROUND OF REJECTION, FINDINGS OF FACT, PRINCIPLES OF LAW, ISSUE).
Otherwise a sentence is attributed by the cue that starts earliest ("Appellant contends that the
Examiner relies ..." is the appellant's) or by the party's paper it cites ("Appeal Br. 5" -> appellant,
"Final Act. 4" / "Ans. 3" -> examiner). A sentence with neither keeps the role of the attributed sentence
before it only when it visibly continues that paraphrase (a bare record citation, "In particular, ...",
"allegedly", a quotation) in the same paragraph; anything else takes its section's default
(STATEMENT OF THE CASE -> facts, ANALYSIS -> board opinion). Conclusions ("Thus, ...") and legal
citations ("In re Kahn, 441 F.3d ...") are the Board's unless attributed. `leak_check` applies the same
Board-voice patterns to any splitter's output. `OpinionSplitter` is the interface a model-based
splitter implements.

Real decisions (tests/transforms/fixtures/ptab_real) taught the rest: sections under their real headings
(OPINION, BACKGROUND, "II. Obviousness", a footnote marker glued on), a lower-case party only where it opens
the sentence's clause ("the examiner responds", not "as appellant points out"), a party by name ("Bayer
argues"), record citations however written ("[answer, page 9]", "(Brief at 14.)", "(Br5-7; RBr4-7)"), a
quoted brief block that ends on its citation, and a party mentioned between two Board sentences as the
Board's narrative.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import polars as pl

ROLES = ("appellant_arguments", "examiner_findings", "ptab_opinion", "facts")
INPUT_ROLES = ("appellant_arguments", "examiner_findings")
ATTRIBUTED = INPUT_ROLES
SPLIT_SECTIONS = ("statement_of_the_case", "analysis")
# Real headings vary: BPAI decisions open the analysis with OPINION (or Opinion, DISCUSSION), later ones with
# ANALYSIS or a numbered heading naming the rejection ("II. Obviousness"); the statement of the case may be
# headed by what it holds (BACKGROUND, THE INVENTION, CLAIMED SUBJECT MATTER); the order by DECISION, ORDER,
# CONCLUSION, SUMMARY or DECISION/ORDER. A footnote marker may be glued to a heading ("STATEMENT OF THE CASE1");
# a PDF's text layer may space its words apart ("STATEMENT  OF  CASE").
HEADINGS = (("decision_on_appeal", r"DECISION ON (?:APPEAL|REMAND|REQUEST FOR REHEARING|REHEARING)"),
            ("statement_of_the_case", r"STATEMENT\s+OF\s+(?:THE\s+)?CASE|Statement of (?:the )?Case"),
            ("soc_alias", r"BACKGROUND|(?:THE )?(?:CLAIMED )?(?:INVENTION|SUBJECT MATTER)(?: ON APPEAL)?|"
                          r"(?:THE )?CLAIMED SUBJECT MATTER|CASE HISTORY"),
            ("analysis", r"ANALYSIS|DISCUSSION|OPINION|Opinion|Analysis|Discussion"),
            ("decision", r"DECISION(?:\s*/\s*ORDER)?|Decision(?:\s*/\s*Order)?|ORDER|CONCLUSIONS?(?: AND ORDER)?|DECISION SUMMARY|SUMMARY(?: OF (?:THE )?DECISION)?|"
                         r"Decision|Order|Conclusion"),
            ("footnotes", r"FOOTNOTES?"),
            ("separate_opinion", r"(OPINION )?(DISSENTING|CONCURRING)( OPINION)?|.{0,40}, (dissenting|concurring)"))
_HEADING = [(name, re.compile(rf"^\s*(?:[IVX]+\.\s*)?(?:{pat})(?:\s?\d{{1,2}}|\*+)?\s*$",
                              re.I if name == "separate_opinion" else 0)) for name, pat in HEADINGS]
# a SUMMARY heading opens the order at the end, but the opening's summary (the appeal's history, "We AFFIRM.")
# where no statement or analysis has come yet
_SUMMARY = re.compile(r"^\s*SUMMARY\b")
# a numbered heading that names a rejection or a lettered "F. Analysis" opens the analysis
_ANALYSIS_HEADING = re.compile(r"^(?:[IVX]+|[A-H]|\d{1,2})\.\s+(?:(?:The )?(?:Analysis|Discussion)\b|(?:The )?Rejections?\b|"
                               r"Obviousness|Anticipation|Indefiniteness|Written Description|Enablement|"
                               r"(?:Patent[- ])?Eligib|Subject[- ]Matter Eligib|(?:35 U\.S\.C\.\s*)?§+\s*\d{3})", re.I)
# The Board's voice: a sentence matching any of these is never an input (splitter and leak check alike).
BOARD_VOICE = {
    "first_person": r"\b(?:[Ww]e|us|[Oo]ur|ourselves)\b",
    "persuasive": r"\b(?:un)?persuasive\b|\bpreponderance of (?:the )?evidence\b",
    "disposition": r"\b(?:is|are|was|were|remains?|must be|will be|hereby) (?:\w+ )?(?:sustained|affirmed|"
                   r"reversed|vacated|remanded)\b|^(?:AFFIRMED|REVERSED|VACATED|REMANDED)\b|\b41\.50\(b\)",
    "accordingly": r"^(?:Accordingly|For (?:these|those|the (?:foregoing|above|same|reasons))|In (?:sum|summary|"
                   r"view of the foregoing|light of the foregoing)|On (?:this|the) record|Based on (?:this|the) "
                   r"record|Having (?:considered|reviewed))\b",
    "own_reasoning": r"\b(?:supra|infra)\b|\bas (?:discussed|explained|noted|set forth|stated|found|determined) "
                     r"(?:above|below)\b|\b(?:discussed|addressed) above\b|\bfor the reasons? (?:set forth|given|"
                     r"stated|discussed|explained) (?:above|below)\b|\bit is reasonable to conclude\b|"
                     # the Board hedging or weighing: "It would seem, absent evidence to the contrary, that ..."
                     r"^It (?:would|does|might) (?:seem|appear)\b|^If anything\b",
    "board_evaluation": r"\breversible error\b|\battorney argument\b|\barguments?\b[^.]{0,100}\b(?:is|are|was|were) "
                        r"(?:not (?:supported|convincing|well|commensurate|relevant)|unconvincing|inapposite|"
                        r"irrelevant|"
                        r"insufficient)\b|\bapprise[sd]?\b|\bExaminer did not err\b|\b(?:unavailing|"
                        r"misplaced|without merit|not well[- ]taken)\b|\bnot commensurate with\b|"
                        r"\b(?:[Aa]ppellants?(?:'s?)?|[Tt]hey|[Hh]e|[Ss]he) (?:does|do|has|have|had|did)(?: \w+)? not (?:\w+ )?"
                        r"(?:explain|address|dispute|contest|identif(?:y|ied)|provided?|point|direct|rebut|refute|offer|show|"
                        r"establish|demonstrate|present|cite|challenge|argue|persuade|allege|assert|contend|"
                        r"proffer|submit)(?:s|d|ed|n)?\b|\b(?:[Aa]ppellants?|[Tt]hey) (?:has|have|had) (?:\w+ )?"
                        r"(?:presented|provided|offered|made|identified|cited) no\b|"
                        # "the appellants submit neither evidence nor argument that ..."
                        r"\b(?:[Aa]ppellants?|[Tt]hey) (?:\w+ )?(?:submit|present|provide|offer|proffer|cite)s? neither\b|"
                        r"\bneither evidence nor argument\b|^As the Examiner (?:\w+ )?(?:finds|found|explains|"
                        r"explained|notes|noted|determines|determined|correctly)\b|^Rather than\b|"
                        r"\b(?:[Aa]ppellants?|[Ee]xaminer|[Tt]hey|brief|answer)(?:'s|’s)? (?:\w+ )?(?:merely|barely|simply)\b|"
                        # the Board narrowing a party's case: "... second point ... is essentially limited to the
                        # argument that ..."
                        r"\b(?:is|are|was|were) (?:\w+ )?(?:limited|confined|reduced) to (?:the |an? )?(?:argument|"
                        r"contention|assertion)\b|"
                        r"\b(?:conclusory|untenable|boilerplate)\b|"
                        # the Board faulting a party: "... but never indicates which component ...",
                        # "The examiner also ignores Thom's objective"
                        r"\bbut (?:never|nowhere)\b|^(?:[^,;]{0,60}, )?[Tt]he [Ee]xaminer (?:\w+ )?(?:ignores|ignored|overlooks|overlooked|"
                        r"misreads|misread|mischaracteriz\w+|misapprehend\w*|misconstru\w+)\b|"
                        # the Board endorsing a party: "As correctly indicated by the appellants in their brief, ..."
                        r"^As (?:correctly |properly |rightly )?(?:indicated|noted|explained|pointed out|stated|found|"
                        r"argued|recognized|acknowledged) by (?:the )?(?:[Aa]ppellants?|[Ee]xaminer)\b|"
                        # the Board endorsing the examiner: "The Examiner specifically pointed out that ..."
                        r"\b[Ee]xaminer (?:has )?(?:correctly|properly|reasonably|rightly|specifically|explicitly) "
                        r"(?:\w+ )?(?:found|finds|pointed|points|explained|explains|determined|noted|notes|relied|"
                        r"relies)\b|"
                        # the Board on what was (not) argued where: "which had not been argued in the main brief"
                        r"\bnot (?:been )?(?:argued|raised|presented) (?:in|before|until)\b|\buntimely\b|\bwaived?\b",
    # the Board weighing a party's argument or finding: "This argument does not respond to what appears to be a
    # reasonable finding by the examiner", "Appellant's argument thus contests the underlying finding", "the quoted
    # portion ... does not support appellant's contention", "Appellant cites a reference ... but fails to ..."
    "judges_argument": r"^(?:\d{1,2} ?)?(?:[^,;]{0,80}, )?(?:[Tt]his |[Tt]hat |[Tt]he |[Tt]hese )?(?:[Aa]ppellants?(?:['’]s?)? |"
                       r"[Ee]xaminer['’]s )?(?:argument|contention)s? (?:\w+ )?(?:contests?|challenges?|overlooks?|"
                       r"ignores?|misses|fails?|does not|do not|did not)\b|\breasonable finding\b|\bappears? to be "
                       r"(?:a |an )?(?:reasonable|correct|proper|sound)\b|\b(?:does|do|did) not (?:support|undermine|rebut|"
                       r"respond to) (?:the |this |that )?(?:[Aa]ppellants?|[Ee]xaminer)\w*(?:['’]s?)? (?:\w+ )?"
                       r"(?:contention|argument|position|view|finding|conclusion)s?\b|\bbut (?:fails?|failed|neglects?|"
                       r"neglected) to\b|\b(?:is|are|was|were) (?:not (?:dispositive|determinative|controlling)|of no "
                       r"moment|beside the point)\b|^While it is true\b|"
                       # a party faulted by the Board's adverb: "the examiner at times erroneously refers to ..."
                       r"^(?:\d{1,2} ?)?(?:[^,;]{0,80}, )?(?:[Tt]he )?(?:[Ee]xaminer|[Aa]ppellants?) (?:\w+ ){0,3}(?:erroneously|"
                       r"incorrectly|mistakenly|improperly)\b",
    # the law the Board applies: "the examiner has the initial burden of presenting ...", "the examiner must provide
    # a basis in fact ..."
    "legal_standard": r"\b(?:has|have|bears?|bore|had) the (?:initial )?burden\b|\b(?:[Aa]n|[Tt]he) examiner "
                      r"(?:must|is required to)\b",
}
_BOARD = {name: re.compile(p) for name, p in BOARD_VOICE.items()}
# The Board's unless the sentence is attributed: conclusions, legal citations, questions (the ISSUE).
BOARD_LEANING = re.compile(
    r"^(?:Thus|Therefore|Hence|Consequently|As such|In short)\b|\b(?:In re|Ex parte) [A-Z]|\b[A-Z][\w.'&-]* v\. "
    r"[A-Z]|\b\d+ (?:F\.(?: ?(?:2d|3d|4th))?|U\.S\.|S\. ?Ct\.|USPQ(?:2d)?|F\. ?Supp\.(?: ?[23]d)?) ?\d|"
    r"\((?:Fed\. Cir\.|C\.?C\.?P\.?A\.?|B\.?P\.?A\.?I\.?|P\.?T\.?A\.?B\.?)[^)]*\)|\?$")
_ANALYSIS_OF_BOARD = re.compile(r"(?i)new grounds? of rejection|findings? of fact|principles? of law|^issues?\b|"
                                r"^conclusions?\b|^(?:the )?(?:board's )?analysis\b")
# where a lower-case party may open an attribution: the sentence's start, after a connective or a
# "With respect to claim 5," phrase (not "As this record stands, appellant relies ...", which is the Board's)
_OPENS = (r"(?:^(?:(?:With (?:respect|regard) to|As (?:to|for)|Regarding|In|For|Turning to|On appeal|Specifically|"
          r"Here|On the other hand|By contrast|Conversely|However|Considering|Addressing|(?:On|At) pages?)\b"
          # the phrase ends at a comma or at a closing citation: "However, in reply (Answer, page 8) the examiner"
          r"(?:[^.;]|\.(?!\s)|(?<=[A-Z])\.|(?<=\bNo)\.){0,160}?(?:, |\) )|"
          r"(?:In addition|Additionally|Finally|Further(?:more)?|Moreover|Similarly|Next|First|Second|Third|Also|"
          r"Instead|Again|However|Lastly|Then),? )?)")
# a record citation between a party and its verb: "the examiner (answer at 8) stated", "Appellants (Br. 5) argue"
_RECORD = r"(?: \((?:see )?[^()]{1,60}\))?"
CUES = {
    "examiner_findings": rf"(?:\b(?:[Tt]he )?Examiner|{_OPENS}[Tt]he examiner)(?:'s|’s)?{_RECORD} (?:(?:also|further|then|additionally|alternatively|"
                         r"similarly|first|next|again|now|correctly|expressly) )?(?:has |had |is |was )?"
                         r"(?:finds|found|determines|determined|concludes|concluded|rejects|rejected|relies|relied|"
                         r"argues|argued|contended|asserted|urges|takes|took|points out|pointed out|responded|"
                         r"admits|admitted|refers to|referred to|indicates|indicated|taken the position|"
                         r"reasons|reasoned|explains|explained|states|stated|notes|noted|takes the position|answers|"
                         r"responds|responded|maintains|contends|asserts|identifies|identified|cites|cited|"
                         r"interprets|construes|construed|considers|acknowledges|proposes|proposed|characterizes|"
                         r"equates|maps|points to|turns to|reads|applies|applied|distinguishes|observes|opines|insists|insisted|"
                         r"says|adds|added|attempts to|sets forth(?! (?:a |an )?(?:prima facie|sufficient|adequate|reasonable|proper))|"
                         r"is of the (?:opinion|view)|(?:position|rationale|reasoning|view|opinion)(?: \([^)]{1,40}\))? "
                         r"(?:is|was|appears to be) that)\b|"
                         r"^(?:[^,;]{0,40}, )?[Ii]t is (?:the )?[Ee]xaminer(?:'s|’s) (?:position|view|contention|opinion) that\b|"
                         r"^(?:The |Here, the )?[Ee]xaminer(?:'s|’s) (?:\w+ )?(?:position|rationale|reasoning|theory|"
                         r"contention|conclusion|determination)\b[^.]{0,120}? (?:is|was|appears to be) that\b|"
                         # the examiner's paper as the subject: "Page 4 of the answer characterizes Phillips as ..."
                         r"^(?:(?:Page|pages) [\d\s,and–-]+ of )?[Tt]he (?:(?:supplemental |final )?[Ee]xaminer(?:'s|’s) "
                         r"answer|answer|final (?:rejection|office action))(?: \([^)]{1,40}\))? (?:characterizes|states|"
                         r"explains|finds|asserts|notes|concludes|indicates|maintains)\b|"
                         r"\b[Ii]n the [Ee]xaminer(?:'s|’s) (?:opinion|view)\b|"
                         # what the rejection rests on, as the Board reports it: "Rejection II is based solely on ..."
                         r"^(?:The |This |That )?(?:[Ee]xaminer(?:'s|’s) )?(?:[Rr]ejection|finding|determination)s?"
                         r"(?: [IVX]+| of claims? [\d\u2013\-, and]+| that [^.;]{0,160}?)? (?:is|are|was|were) (?:\w+ly )?(?:based|premised|"
                         r"predicated|grounded)(?: \w+ly)? (?:up)?on\b(?!.*\b(?:speculation|hindsight|erroneous|improper|"
                         r"impermissible|mistaken)\b)|\b[Aa]ccording to the [Ee]xaminer\b|"
                         # the examiner's paper as the source: "According to the Answer (at 2), ..."
                         r"^[Aa]ccording to the (?:[Ee]xaminer(?:'s|’s) )?(?:[Aa]nswer|[Ff]inal (?:[Rr]ejection|[Oo]ffice [Aa]ction))\b|"
                         r"\bstands? (?:finally )?rejected\b",
    "appellant_arguments": rf"(?:\bAppellants?|\bApplicants?|{_OPENS}(?:[Tt]he )?(?:appellants?|applicants?))(?:'s?|’s?)?{_RECORD} (?:(?:also|further|then|additionally|"
                           r"alternatively|similarly|first|next|again|now|instead|essentially|specifically) )?"
                           r"(?:argues?|argued|contends?|contended|asserts?|asserted|submits?|submitted|maintains?|"
                           r"responds?|responded|relies|rely|relied|disputes?|urges?|alleges?|alleged|reasons|explains?|"
                           r"concludes?|concluded|challenges?|challenged|presents?|notes?|noted|made note|insisted|"
                           r"believes?|states?|stated|traverses?|traversed|propose[sd]?|concede[sd]?|"
                           r"characterizes?|points? (?:out|to)|notes|cites?|refers? to|directs?|takes? the position|says|"
                           r"adds?|observes?|"
                           r"emphasizes?|insists?|counters?|replies|reply|discuss(?:es)?|address(?:es)?|offers?|(?:position|rationale|view) is|are of the (?:opinion|view))\b|"
                           r"^It is (?:the )?[Aa]ppellants?(?:'s?|’s?) (?:position|view|contention|argument) that\b|"
                           r"\b[Aa]ccording to [Aa]ppellants?\b|\b[Ii]n [Aa]ppellants?(?:'s?|’s?) view\b|"
                           # counsel at the oral hearing: "At oral hearing the appellants' counsel noted that ..."
                           r"\b(?:[Aa]ppellants?|[Aa]pplicants?)(?:'s?|’s?) (?:counsel|attorney|representative)s? "
                           r"(?:(?:also|further) )?(?:noted|argued|stated|asserted|contended|urged|explained)\b|"
                           r"^[Aa]ppellants?(?:'s?|’s?) (?:(?:principal|main|primary|first|second|remaining|only) )?"
                           r"(?:argument|contention|position)s?\b|"
                           # "The sole argument advanced by Appellant is that ..."
                           r"^The (?:\w+ )?(?:argument|contention)s? (?:advanced|made|presented|raised) by (?:the )?"
                           r"[Aa]ppellants?\b|\b[Ii]t (?:was|is) (?:also |further )?(?:argued|asserted|contended|urged)\b|"
                           # a party named ("Bayer argues"): the Board and the references never argue or contend
                           r"^(?!The\b|[Ee]xaminer\b)[A-Z][\w.&'’-]+(?: [A-Z][\w.&'’-]+){0,2} "
                           r"(?:(?:also|further) )?(?:argues|contends|urges|asserts|submits|maintains)\b",
}
_CUES = {role: re.compile(p) for role, p in CUES.items()}
# `is/are rejected under` describes the Examiner's rejection in the STATEMENT OF THE CASE only (in the
# ANALYSIS it is how the Board words a new ground).
_SOC_REJECTION = re.compile(r"\b(?:is|are) rejected under\b")
# facts anywhere: what a claim recites, the list of references relied on
_FACTS = re.compile(r"^(?:Independent |Dependent )?[Cc]laims? [\d\u2013\-, and]+ (?:recites?|requires?)\b|\brel(?:ies|ied) "
                    r"(?:up)?on the following (?:prior art|references?)\b|^The (?:prior art|references?) relied upon\b|"
                    r"^According to (?:the )?[Aa]ppellants?,? (?:the|its|their) (?:real party|(?:claimed )?invention|"
                    r"disclosure|(?:claimed )?subject matter)\b|"
                    r"\breal party in interest\b|\bgroups? of claims\b|\bstands? or falls? together\b|\bappeals? (?:\w+ )?under 35 U\.S\.C\. § ?134\b")
_PAPERS = {"appellant_arguments": r"(?:Appeal|App\.|Reply) Br\.|\bBr\.|Appeal Brief|Reply Brief",
           "examiner_findings": r"(?:Non-)?Final (?:Act|Rej)\.|\bAns\.|Examiner's Answer|Adv\. Act\.|Office Act\.|\bFOA\b"}
_CITE_TAIL = {role: re.compile(rf"(?:^|[.;(]\s*|\s(?:See|see|citing)\s)(?:See,? |see,? |e\.g\.,? )?(?:{p})\s*"
                              rf"(?:at )?[\d\u2013\u2014\-, ¶:]+\)?\.?\s*$") for role, p in _PAPERS.items()}
_ONE_CITE = (rf"(?:Id\.|{_PAPERS['appellant_arguments']}|{_PAPERS['examiner_findings']}|Spec\.|Fig\.|Figs\.)"
             rf"[^A-Za-z;]*(?:at [^A-Za-z;]*)?(?:\([^)]*\))?")
# one record citation or several ("See Final Act. 1-2; Appeal Br. 1.")
_BARE_CITE = re.compile(rf"^(?:See,? |see,? |Cf\. |e\.g\.,? )?(?:e\.g\.,? )?{_ONE_CITE}(?:;\s*(?:see also |see )?{_ONE_CITE})*"
                        rf"\.?$")
# a closing parenthetical/bracketed citation to one party's paper, however the decision writes it
_PAREN_TAIL = re.compile(r"[(\[]([^()\[\]]{1,90})[)\]]\.?[)\]]?\.?\s*(?:\d{1,2})?\s*$")
_PARTY_PAPER = {"examiner_findings": re.compile(r"(?i)\b(?:(?:sub(?:\.|stitute|plemental)? )?(?:examiner's |examiner’s )?"
                                                r"answer|ans\.|final (?:act|rej|office action)|office action|"
                                                r"non-final|advisory action|EA\s?\d|FOA\s?\d)"),
                "appellant_arguments": re.compile(r"(?i)\b(?:(?:appeal|reply|principal|main|supplemental) )?brief\b|"
                                                  r"\b(?:R|App\. |Appeal |Reply )?Br\.?\s?\d|\bRBr\d|\brequest, page")}
# a bare written-out citation: "See the brief at page 5, ...", "See pages 13-14 of the Appeal Brief."
_WRITTEN_CITE = re.compile(r"(?i)^(?:see,? )?(?:e\.g\.,? )?(?:the |pages? [\d\s,and–-]+ of the )?(?:(?:appeal|reply|"
                           r"principal|main|supplemental) )?(brief|answer|examiner's answer|examiner’s answer|final "
                           r"rejection)\b[^.]{0,90}\.?$")


def paper_tail(sentence: str) -> str | None:
    """The party whose paper a trailing parenthetical or bracketed citation names ("... [answer, page 9].")."""
    if m := _PAREN_TAIL.search(sentence):
        hits = [(h.start(), role) for role, rx in _PARTY_PAPER.items() if (h := rx.search(m.group(1)))]
        return min(hits)[1] if hits else None
    return None


_CONTINUES = re.compile(r"^(?:In particular|Specifically|More specifically|Further(?:more)?|Additionally|In addition|"
                        r"Moreover|Also|Instead|Rather|That is|In other words|Alternatively|For example|For instance|"
                        r"Similarly|Likewise|Namely|They|He|She)\b|"
                        r"^(?:First|Second|Third|Fourth|Finally|Next|Also|Further),? (?:he|she|they)\b|"
                        # a pointer to where the party said it: "See page 2 of Paper No. 8 wherein the examiner ..."
                        r"^See,? (?:also )?(?:pages?|Paper)\b|"
                        r"^[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)? (?:further|also|additionally) "
                        r"(?!\w+ed\b)|\b(?:allegedly|purportedly|according to)\b|^[\"\u201c\u2018']")
DEFAULT_ROLE = {"statement_of_the_case": "facts", "analysis": "ptab_opinion"}
ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|al|No|Nos|Fig|Figs|Br|Ans|Act|Reply|Spec|Ex|col|para|ll|App|Fed|Cir|Ct|Supp|"
                    r"Inc|Corp|Co|Ltd|Decl|Pat|Pub|Ser|Appl|v|Reh'g|Req|Adv|Rej|Sub|Supp|Exh|Exs|Mr|Ms|Dr|"
                    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.|§)$")
# where spaCy does not cut: after a closing quote, after "Id." / "Id. at 5." (tokenizer exceptions)
_EXTRA_CUT = re.compile(r"(?:[.?!][\u201d\"\u2019]|\bId\.|\bId\. at [\d\u2013\-,: \u00b6]+\.|"
                        # a closing "(Id.)" / "(Id. at 3.)": "... coding.” (Id.) Third, the examiner states ..."
                        r"\(Id\.(?: at [\d\u2013\-,: \u00b6]+\.?)?\)\.?|"
                        # a footnote marker glued to a sentence's last word: "... Rosen and Chung.1 Rather than ..."
                        r"(?<=[a-z]{3})\.\d{1,2}|"
                        # a footnote marker glued to a citation: "(Br. 4-6).4 First, ..."
                        r"(?:\)\.?|\.\)|[.?!][\u201d\"])\d{1,2})\s+(?=[A-Z\u201c\"])")
# a footnote marker opening a piece ("2 We refer to ...") starts a sentence; it is not a number to re-join
_FOOTNOTE_START = re.compile(r"^\d{1,2} (?:[A-Z][a-z]|[\u201c\"][A-Z])")
_TRAILING_ENUMERATOR = re.compile(r"^(.*:)\s+((?:\d{1,3}|[IVX]{1,5})\.)$")
_ENUMERATOR = re.compile(r"^(?:\d{1,3}|[IVX]{1,5}|[A-H])\.$")


@dataclass(frozen=True)
class Sentence:
    section: str
    role: str
    text: str
    cue: str | None  # the cue that fired; None when inherited or defaulted


@dataclass
class OpinionSplit:
    """Sentences of STATEMENT OF THE CASE + ANALYSIS with roles, plus what the splitter noticed."""
    sentences: list[Sentence] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)

    def text_of(self, role: str) -> str:
        return " ".join(s.text for s in self.sentences if s.role == role)


class OpinionSplitter(Protocol):
    """Anything that turns cleaned decision text into role-tagged sentences (rules today, a model later)."""
    name: str

    def split(self, text: str) -> OpinionSplit: ...


def section_of(paragraph: str) -> str | None:
    """The section a heading paragraph opens ("soc_alias": a heading naming part of the statement of the
    case), or None when it is not a section heading."""
    for name, rx in _HEADING:
        if rx.match(paragraph):
            return name
    if len(paragraph) < 80 and _ANALYSIS_HEADING.match(paragraph) and not paragraph.endswith((".", ":")):
        return "analysis"
    return None


def split_sections(text: str) -> list[tuple[str, list[str]]]:
    """Paragraphs (blank-line separated) grouped under the section headings; text before any is `caption`.
    A heading that names part of the statement of the case opens it only where no statement or analysis is
    open yet (elsewhere it is a sub-heading); a heading that re-opens the section already open is one too."""
    out: list[tuple[str, list[str]]] = [("caption", [])]
    for par in (p.strip() for p in text.split("\n\n")):
        if not par:
            continue
        name, current = section_of(par), out[-1][0]
        if name == "soc_alias":
            name = None if current in ("statement_of_the_case", "analysis") else "statement_of_the_case"
        elif name == "decision" and _SUMMARY.match(par) and current in ("caption", "decision_on_appeal"):
            name = "statement_of_the_case"  # "SUMMARY OF THE DECISION" before the case: the opening, not the order
        if name and name != current and not (name == "decision_on_appeal" and any(s == name for s, _ in out)):
            out.append((name, []))
        else:
            out[-1][1].append(par)
    return out


@lru_cache(maxsize=1)
def _nlp() -> Any:
    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def _reattach_openers(pieces):  # noqa: ANN001, ANN202
    """spaCy may end a sentence with the "(" or opening quote of the next one ("Corporation. (Appeal Br. 3.)")."""
    carry = ""
    for piece in pieces:
        piece = f"{carry}{piece}" if carry else piece
        carry = ""
        if m := _OPENER_AT_END.search(piece):
            piece, carry = piece[:m.start()].rstrip(), m.group(1)
        if piece:
            yield piece
    if carry:
        yield carry


_OPENER_AT_END = re.compile(r"\s([(\[\u201c\u2018]|\")$")


def sentences(paragraph: str) -> list[str]:
    """spaCy sentencizer, cut again after closing quotes and "Id." citations; fragments re-joined (after
    citation abbreviations, or starting lower-case); a bare enumerator ("1.", "II.") opens the next one."""
    out: list[str] = []
    pending = ""
    for piece in _reattach_openers(s.text.strip() for s in _nlp()(paragraph).sents):
        cuts = [0, *(m.end() for m in _EXTRA_CUT.finditer(piece)), len(piece)]
        for s in (piece[a:b].strip() for a, b in zip(cuts, cuts[1:])):
            if not s:
                continue
            if out and not pending and (ABBREV.search(out[-1]) or out[-1].endswith(("\u00b6", " at")) or
                                        s[0].islower() or s[0] in "§(\u201d" or
                                        (s[0].isdigit() and not _ENUMERATOR.match(s) and
                                         not _FOOTNOTE_START.match(s))):
                out[-1] = f"{out[-1]} {s}"
            elif m := _TRAILING_ENUMERATOR.match(s):  # "Claim 1 reads as follows: 1." + "A separator ..."
                out.append(pending + m.group(1))
                pending = f"{m.group(2)} "
            elif _ENUMERATOR.match(s):
                pending = f"{pending}{s} "
            else:
                out.append(pending + s)
                pending = ""
    return out + ([pending.strip()] if pending else [])


_OUR_REVIEW = re.compile(r"\b(?:seeks?|requests?) our review\b")  # the appeal's procedural posture, a fact


def board_voice(sentence: str) -> str | None:
    """The first `BOARD_VOICE` pattern the sentence matches, or None when it is not in the Board's voice."""
    sentence = _OUR_REVIEW.sub("seeks review", sentence)
    return next((name for name, rx in _BOARD.items() if rx.search(sentence)), None)


def cited_party(sentence: str) -> str | None:
    """The role whose paper a bare record citation cites ("Appeal Br. 5." -> appellant_arguments); None for
    another sentence, or a citation to a neutral paper (Spec., Id.)."""
    if m := _WRITTEN_CITE.match(sentence):
        return "appellant_arguments" if m.group(1).lower() == "brief" else "examiner_findings"
    if not _BARE_CITE.match(sentence):
        return None
    hits = [(m.start(), role) for role, p in _PAPERS.items() if (m := re.search(p, sentence))]
    return min(hits)[1] if hits else None


_LEADING_MARKER = re.compile(r"^\d{1,2}\s?(?=[A-Z][a-z])")  # a footnote's number before its first word


def cue_role(sentence: str, section: str | None = None) -> str | None:
    """The role a sentence states on its own: the Board's voice first, then the attribution cue starting
    earliest, then the party's paper a trailing citation names (None when nothing fires)."""
    sentence = _LEADING_MARKER.sub("", sentence)
    if board_voice(sentence):
        return "ptab_opinion"
    hits = [(m.start(), role) for role, rx in _CUES.items() if (m := rx.search(sentence))]
    if section == "statement_of_the_case" and (m := _SOC_REJECTION.search(sentence)):
        hits.append((m.start(), "examiner_findings"))
    if hits:
        return min(hits)[1]
    if not _BARE_CITE.match(sentence):
        return next((role for role, rx in _CITE_TAIL.items() if rx.search(sentence)), None) or paper_tail(sentence)
    return None


# a party's sentence that introduces a block quote: "... they urge:", "the examiner explains that"
_INTRODUCES = re.compile(r"(?::|\b(?:that|states?|stated|explains?|explained|argues?|argued|urges?|asserts?|contends?))$")


def _is_subheading(par: str) -> bool:
    return len(par) < 80 and par[-1] not in ".:;\"')\u201d"


def open_quote(sentence: str | None) -> bool:
    """Whether a quotation opened in the sentence is still open at its end (the next sentence continues it)."""
    if not sentence:
        return False
    return sentence.count("\u201c") > sentence.count("\u201d") or sentence.count('"') % 2 == 1


def classify(sent: str, section: str, prev: str | None, following: str | None,
             prev_sent: str | None = None) -> tuple[str, str | None]:
    """(role, what decided it) of one sentence; `prev` is the role of the sentence before it in the same
    paragraph (None at a paragraph start), `following` the next sentence of the paragraph, `prev_sent` the
    sentence before (a quotation it leaves open goes on in this one)."""
    if board := board_voice(sent):
        return "ptab_opinion", f"board:{board}"
    if _BARE_CITE.match(sent) or _WRITTEN_CITE.match(sent):  # "Final Act. 4." documents the sentence before it
        return (prev, "citation") if prev else (DEFAULT_ROLE[section], None)
    if _FACTS.search(sent):
        return "facts", "facts"
    if role := cue_role(sent, section):
        return role, role
    if BOARD_LEANING.search(sent):
        return "ptab_opinion", "board_leaning"
    if prev in ATTRIBUTED and (_CONTINUES.search(sent) or open_quote(prev_sent) or
                               (following and cited_party(following) == prev)):
        return prev, "continues"
    return DEFAULT_ROLE[section], None


def _paragraph_roles(sents: list[str], roles: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Second look at one paragraph. A block that opens with a party's cue and closes with a citation of that
    party's paper ("Appellants argue that ... . Second, ... ? Br. 23.") is that party's throughout, unless a
    sentence of it is in the Board's voice. A sentence attributed by a cue alone (no citation of the party's
    paper) between two Board-voice sentences is the Board's narrative ("The examiner points out ...")."""
    out = list(roles)
    first = out[0][0]
    if len(out) > 2 and first in ATTRIBUTED and (cited_party(sents[-1]) == first or paper_tail(sents[-1]) == first) \
            and not any(board_voice(t) for t in sents):
        out = [(first, cue if role == first else "block") for role, cue in out]
    for i in range(1, len(out) - 1):
        if out[i][0] in ATTRIBUTED and out[i][1] in ATTRIBUTED and not paper_tail(sents[i]) and \
                all(board_voice(sents[j]) for j in (i - 1, i + 1)):
            out[i] = ("ptab_opinion", "between_board")
    return out


class RuleSplitter:
    """The transparent cue-phrase splitter (see module docstring)."""
    name = "rules-11"

    def split(self, text: str) -> OpinionSplit:
        result = OpinionSplit()
        for section, sents, roles in self.paragraphs(text, result.sections):
            result.sentences += [Sentence(section, r, t, c) for t, (r, c) in zip(sents, roles)]
        result.flags = split_flags(result)
        return result

    def paragraphs(self, text: str, sections: list[str] | None = None
                   ) -> Iterator[tuple[str, list[str], list[tuple[str, str | None]]]]:
        """(section, sentences, [(role, cue)]) per paragraph of the two split sections, in order; `sections`
        collects every section met (the trained route reads the same paragraphs and the rules' roles)."""
        for section, paras in split_sections(text):
            if sections is not None:
                sections.append(section)
            if section not in SPLIT_SECTIONS:
                continue
            boards = False  # under a sub-heading of the Board's own (NEW GROUND OF REJECTION, ISSUE ...)
            quoted = None  # the party whose sentence ending in ":" or "that" introduces the next paragraph (a block quote)
            for par in paras:
                if _is_subheading(par):
                    boards = bool(_ANALYSIS_OF_BOARD.search(par.strip()))
                    continue
                sents, prev, roles = sentences(par), None, []
                for i, sent in enumerate(sents):
                    role, cue = classify(sent, section, prev, sents[i + 1] if i + 1 < len(sents) else None,
                                         sents[i - 1] if i else None)
                    # under the Board's own sub-heading only what a party's cue or paper attributes is not the
                    # Board's (findings of fact quote the briefs: "2. Appellants argue that ... Br. 23.")
                    if boards and cue not in ATTRIBUTED and not (cue == "citation" and prev in ATTRIBUTED):
                        role, cue = "ptab_opinion", "subheading"
                    roles.append((role, cue))
                    prev = role
                roles = _paragraph_roles(sents, roles) if sents else roles
                if quoted and not board_voice(sents[0]):  # the quote's sentences in the Board's voice stay its
                    roles = [r if board_voice(t) else (quoted, "quoted") for t, r in zip(sents, roles)]
                quoted = roles[-1][0] if sents and roles[-1][0] in ATTRIBUTED and _INTRODUCES.search(sents[-1]) else None
                yield section, sents, roles


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def leak_check(inputs: dict[str, str | None], opinion: str | list[str] | None, min_words: int = 6) -> list[str]:
    """Why a case's inputs leak the Board's opinion (empty: clean), whichever splitter made them.

    A leak is an input sentence in the Board's voice (`BOARD_VOICE`), or a sentence of the case's own
    `ptab_opinion` (`min_words` words or more, compared case- and punctuation-blind) inside an input."""
    problems = []
    for name, text in inputs.items():
        for sent in sentences(text or ""):
            if board := board_voice(sent):
                problems.append(f"{name}: board voice ({board}): {sent[:100]}")
    own = sentences(opinion) if isinstance(opinion, str) else list(opinion or [])
    normed = {name: f" {_norm(text)} " for name, text in inputs.items() if text}
    for sent in own:
        n = _norm(sent)
        if len(n.split()) >= min_words:
            problems += [f"{name}: sentence of the board's opinion: {sent[:100]}"
                         for name, text in normed.items() if f" {n} " in text]
    return problems


def split_flags(result: OpinionSplit) -> list[str]:
    flags = [f"missing_{s}" for s in SPLIT_SECTIONS if s not in result.sections]
    if not any(s.role == "examiner_findings" for s in result.sentences):
        flags.append("no_examiner_findings")
    if "separate_opinion" in result.sections:
        flags.append("separate_opinion")
    return flags


def split_frame(df: pl.DataFrame, splitter: OpinionSplitter | None = None) -> pl.DataFrame:
    """Add per-role text columns, sentence/role lists and flags to a frame with `text`.

    Per-row Python on purpose: the splitter is a per-document algorithm (spaCy), not a column expression.
    """
    splitter = splitter or RuleSplitter()
    rows = []
    for text in df["text"].to_list():
        res = splitter.split(text or "")
        rows.append({**{r: res.text_of(r) for r in ROLES}, "sentences": [s.text for s in res.sentences],
                     "roles": [s.role for s in res.sentences], "sections": res.sections, "flags": res.flags,
                     "splitter": splitter.name})
    extra = pl.DataFrame(rows, schema={**{r: pl.String for r in ROLES}, "sentences": pl.List(pl.String),
                                       "roles": pl.List(pl.String), "sections": pl.List(pl.String),
                                       "flags": pl.List(pl.String), "splitter": pl.String})
    return pl.concat([df, extra], how="horizontal")


def _tokens(s: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", s.lower()))


def score_roles(pred: list[tuple[str, str]], truth: list[tuple[str, str]], min_jaccard: float = 0.6) -> dict:
    """Per-role counts (tp, fp, fn) of predicted vs true (role, sentence) pairs of one decision.

    A predicted sentence is matched to the unmatched true sentence with the highest token Jaccard
    (>= `min_jaccard`, which tolerates OCR noise); a match counts as a true positive when roles agree.
    """
    counts = {r: {"tp": 0, "fp": 0, "fn": 0} for r in ROLES}
    toks = [_tokens(t) for _, t in truth]
    used: set[int] = set()
    for role, text in pred:
        pt = _tokens(text)
        best, best_j = None, min_jaccard
        for i, tt in enumerate(toks):
            j = len(pt & tt) / max(len(pt | tt), 1)
            if i not in used and j >= best_j:
                best, best_j = i, j
        if best is not None and truth[best][0] == role:
            used.add(best)
            counts[role]["tp"] += 1
        elif role in counts:
            counts[role]["fp"] += 1
    for i, (role, _) in enumerate(truth):
        if i not in used and role in counts:
            counts[role]["fn"] += 1
    return counts


def f1_table(counts: list[dict]) -> dict[str, dict[str, float]]:
    """Sum per-decision counts and compute precision/recall/F1 and support per role."""
    out = {}
    for role in ROLES:
        tp, fp, fn = (sum(c[role][k] for c in counts) for k in ("tp", "fp", "fn"))
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        out[role] = {"precision": round(p, 4), "recall": round(r, 4),
                     "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "support": tp + fn}
    return out
