// The paste box of the site kbc builds: finds the entries that explain a pasted error message
// or log, in the browser, as `kbc match` does. Plain script, no dependencies.
//
// kbc writes site/<lang>/match.json (compiler/site/site_builder.h): per entry its regex already
// in JavaScript syntax (compiler/match/js_regex.h; null when it has none, and the entry then
// matches by its signature only), texts one of which any match of it contains (a prefilter,
// like the atoms kbc match uses, that never skips a regex that would match) and the figures of
// its rank. Matching follows
// compiler/match/matcher.h and rank.h, and tests/browser/run.mjs holds the two to the same
// answers: the text is split at \n; each line, in pieces of 16 KiB when longer, without leading
// and trailing ASCII white space and without its noise (log_lines.h, with the patterns that
// match.json carries), is matched by every entry's regex and by its signature as literal text
// ignoring case; the leftmost match counts, and an empty one is no hit. A hit ranks by [score,
// error_line, coverage, specificity, signature, fix_rate], larger first, then by id; an entry
// keeps its best hit, the earlier line on a tie; a hit scoring under the threshold is not shown,
// and when none is left the near matches are. In a log (two lines or more that are not blank),
// a line of at most 16 KiB that declares a low severity and has no error word is matched only
// by the entries whose signature is such a line.
//
// A regex RE2 runs in linear time may backtrack for hours in JavaScript ("(a+)+$" on a run of
// "a" and a "!"), so the page never runs one: this script, started again as a Web Worker, does
// the matching, and the page stops a worker whose regex runs past its budget, then carries on
// in a fresh one without that entry, which the box then names as not tried (see Session).
(function () {
  'use strict';

  var MAX_SHOWN = 10;
  var MAX_LINE_BYTES = 16 * 1024;  // kMaxLineBytes
  var SHOWN_CODE_POINTS = 160;     // a longer line is cut around the match, as kbc match does
  var SEVERITY_BYTES = 64;         // kSeverityBytes

  // kErrorWords of compiler/match/rank.cc, in the same order.
  var ERROR_WORDS = [
    'error', 'exception', 'fatal', 'fail', 'traceback', 'panic', 'abort', 'denied', 'refused',
    'timed out', 'timeout', 'cannot', "can't", 'unable', 'invalid', 'not found', 'no such',
    'killed', 'segfault', 'segmentation fault', 'critical', 'errno', 'exceeded', 'overflow',
    'violation', 'unexpected', 'exhausted', 'rejected', 'expired', 'incompatible', 'conflict',
    'unauthorized', 'forbidden', 'out of memory', 'crash'];

  // Literal text as a pattern for the `u` flag, which allows only these escapes.
  function quote(text) {
    return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }

  var errorWords = new RegExp(ERROR_WORDS.map(quote).join('|'), 'iu');

  // The longest run of characters of `text` that the `iu` flags match only as themselves or
  // their other ASCII case (ASCII, not s or k, which also match U+017F and U+212A), lower-cased:
  // a line the text matches contains it. The signature's prefilter.
  function literalRun(text) {
    var best = '';
    var runs = text.replace(/[A-Z]/g, function (c) { return c.toLowerCase(); }).split(/[^\x00-\x7f]|[sk]/);
    for (var i = 0; i < runs.length; i++) if (runs[i].length > best.length) best = runs[i];
    return best || null;
  }

  function isSpace(c) {
    return c === 32 || (c >= 9 && c <= 13);
  }

  // Without leading and trailing ASCII white space, as kbc's trim(); String.prototype.trim
  // would also take Unicode spaces.
  function trimAscii(text) {
    var begin = 0;
    var end = text.length;
    while (begin < end && isSpace(text.charCodeAt(begin))) begin++;
    while (end > begin && isSpace(text.charCodeAt(end - 1))) end--;
    return text.slice(begin, end);
  }

  function isHigh(c) { return c >= 0xd800 && c <= 0xdbff; }
  function isLow(c) { return c >= 0xdc00 && c <= 0xdfff; }

  function isWordChar(c) { return /[A-Za-z0-9_]/.test(c); }

  // declares_low_severity of rank.h: INFO, DEBUG or TRACE, in capitals and as a whole word,
  // within the first 64 bytes of the line's UTF-8.
  function declaresLowSeverity(line) {
    var head = 0;  // UTF-16 units of the whole characters in the first SEVERITY_BYTES bytes
    for (var bytes = 0; head < line.length; head++) {
      var c = line.charCodeAt(head);
      var pair = isHigh(c) && isLow(line.charCodeAt(head + 1));
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
      if (bytes > SEVERITY_BYTES) break;
      if (pair) head++;
    }
    var levels = /INFO|DEBUG|TRACE/g;
    for (var m; (m = levels.exec(line)) && m.index + m[0].length <= head;) {
      var end = m.index + m[0].length;
      if (!isWordChar(line.charAt(m.index - 1)) && !isWordChar(line.charAt(end))) return true;
    }
    return false;
  }

  function isLowLine(line) {
    return declaresLowSeverity(line) && !errorWords.test(line);
  }

  // Code points from UTF-16 index `begin` to `end`: what rank.h counts.
  function codePoints(text, begin, end) {
    var n = end - begin;
    for (var i = begin; i + 1 < end; i++) {
      if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) {
        n--;
        i++;
      }
    }
    return n;
  }

  // floor(1000 * matched / line), as coverage_permille.
  function coverage(matched, line) {
    return line > 0 ? Math.floor(1000 * Math.min(matched, line) / line) : 0;
  }

  // The pieces of a line longer than 16 KiB of UTF-8, cut as kbc match cuts them. kbc cuts at
  // exactly 16,384 bytes, which may split a character; here a piece ends before that character.
  function pieces(line) {
    if (line.length * 3 <= MAX_LINE_BYTES) return [line];
    var out = [];
    var start = 0;
    var bytes = 0;
    for (var i = 0; i < line.length; i++) {
      var c = line.charCodeAt(i);
      var pair = isHigh(c) && isLow(line.charCodeAt(i + 1));
      var size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
      if (bytes + size > MAX_LINE_BYTES) {
        out.push(line.slice(start, i));
        start = i;
        bytes = 0;
      }
      bytes += size;
      if (pair) i++;
    }
    out.push(line.slice(start));
    return out;
  }

  // ---- how a line of a log is read (compiler/match/log_lines.h); match.json's "reading" ----

  var KIND_CONTEXT = 'context';
  var KIND_PLAIN = 'plain';
  var KIND_ERROR = 'error';
  var KIND_KEY = 'key';

  function reader(data) {
    var r = data.reading || {};
    return {
      ansi: new RegExp(r.ansi, 'g'), prefix: new RegExp(r.prefix), maxPrefixes: r.max_prefixes | 0,
      context: new RegExp(r.context), key: new RegExp(r.key), frame: new RegExp(r.frame),
    };
  }

  // normalized_line: escape sequences out, then the prefixes, then a final "**", trimmed.
  function normalized(read, line) {
    if (line.indexOf('\x1b') >= 0) line = trimAscii(line.replace(read.ansi, ''));
    for (var i = 0; i < read.maxPrefixes && /^[>*$#\[0-9]/.test(line); i++) {
      var m = read.prefix.exec(line);
      if (!m || m[0].length === 0) break;
      line = trimAscii(line.slice(m[0].length));
    }
    if (line.length > 2 && line.slice(-2) === '**') line = trimAscii(line.slice(0, -2));
    return line;
  }

  function isFrame(read, line) {
    return line.slice(0, 6) === 'File "' && read.frame.test(line);
  }

  function lineKind(read, line, afterFrame, errorWord) {
    if (read.key.test(line)) return KIND_KEY;
    if (afterFrame || read.context.test(line)) return KIND_CONTEXT;
    return errorWord ? KIND_ERROR : KIND_PLAIN;
  }

  // ---- near matches (compiler/match/near_match.h) ----

  function nearWords(text) {
    var out = [];
    var seen = new Set();
    var runs = String(text).match(/[A-Za-z0-9_]+/g) || [];
    for (var i = 0; i < runs.length; i++) {
      var word = runs[i];
      if (word.length < 3 || /^[0-9]+$/.test(word)) continue;
      word = word.toLowerCase();
      if (!seen.has(word)) {
        seen.add(word);
        out.push(word);
      }
    }
    return out;
  }

  function isCodeWord(word) {
    return word.length >= 5 && (word.indexOf('_') >= 0 || (/[0-9]/.test(word) && /[a-z]/.test(word)));
  }

  // floor(log2(n / df)) with integers.
  function rarity(n, df) {
    var bits = 0;
    for (var d = df * 2; d <= n; d *= 2) bits++;
    return bits;
  }

  function nearIndex(entries) {
    var ids = new Map();
    var weights = [];
    var entriesWith = [];
    var lastEntry = [];
    var phrases = [];
    var phrasesOf = [];
    entries.forEach(function (entry, e) {
      entry.phrases.forEach(function (text) {
        var phrase = {entry: e, words: [], total: 0};
        nearWords(text).forEach(function (word) {
          var id = ids.get(word);
          if (id === undefined) {
            id = weights.length;
            ids.set(word, id);
            weights.push(0);
            entriesWith.push(0);
            lastEntry.push(-1);
            phrasesOf.push([]);
          }
          if (lastEntry[id] !== e) {
            lastEntry[id] = e;
            entriesWith[id]++;
          }
          phrase.words.push(id);
        });
        if (phrase.words.length) phrases.push(phrase);
      });
    });
    for (var w = 0; w < weights.length; w++) weights[w] = rarity(entries.length, entriesWith[w]);
    var unique = entriesWith.map(function (n) { return n === 1; });
    phrases.forEach(function (phrase, p) {
      phrase.words.forEach(function (w) {
        phrase.total += weights[w];
        phrasesOf[w].push(p);
      });
    });
    return {ids: ids, weights: weights, unique: unique, phrases: phrases, phrasesOf: phrasesOf};
  }

  // NearIndex::match: [entry, score] of the entries whose near score reaches the minimum.
  function nearMatch(index, score, line) {
    var found = new Map();
    nearWords(line).forEach(function (word) {
      var id = index.ids.get(word);
      if (id === undefined || index.weights[id] === 0) return;
      var w = index.weights[id];
      var code = (w >= score.code_weight || index.unique[id]) && isCodeWord(word);
      index.phrasesOf[id].forEach(function (p) {
        var f = found.get(p);
        if (!f) found.set(p, f = {weight: 0, words: 0, code: false});
        f.weight += w;
        f.words++;
        f.code = f.code || code;
      });
    });
    var best = new Map();
    found.forEach(function (f, p) {
      var phrase = index.phrases[p];
      if (f.words < 2 && !f.code) return;
      var s = Math.floor(99 * f.weight / phrase.total);
      if (s < score.min_near_score) return;
      if (!best.has(phrase.entry) || best.get(phrase.entry) < s) best.set(phrase.entry, s);
    });
    return best;
  }

  // ---- the entries of match.json, compiled once per loaded file ----

  var prepared = typeof WeakMap !== 'undefined' ? new WeakMap() : null;
  function prepare(data) {
    var ready = prepared && prepared.get(data);
    if (ready) return ready;
    var entries = (data && data.entries || []).map(function (e) {
      var signature = trimAscii(String(e[1] || ''));
      var entry = {
        id: String(e[0]), signature: String(e[1] || ''), title: e[2] === null ? null : String(e[2]),
        regex: null, signatureRegex: null,
        regexSpecificity: e[5] | 0, signatureSpecificity: e[6] | 0, fixRate: e[7] | 0,
        needs: Array.isArray(e[8]) && e[8].length ? e[8].map(String) : null,
        signatureNeeds: null,
        low: isLowLine(trimAscii(signature.split('\n')[0])),  // matched on a log's low lines too
        penalty: e[9] | 0,
        alternatives: [],
        phrases: [String(e[1] || '')],
      };
      if (typeof e[3] === 'string') {
        try {
          entry.regex = new RegExp(e[3], e[4]);
        } catch (error) {
          entry.regexError = String(error && error.message || error);  // matches by signature only
        }
      }
      (Array.isArray(e[10]) ? e[10] : []).forEach(function (a) {
        try {
          entry.alternatives.push([a[0] | 0, new RegExp('^(?:' + a[1] + ')$', a[2])]);
        } catch (error) { /* C++ compiled it; a regex JavaScript refuses is skipped */ }
      });
      (Array.isArray(e[11]) ? e[11] : []).forEach(function (alias) { entry.phrases.push(String(alias)); });
      if (e[12]) entry.phrases.push(String(e[12]));
      if (Array.isArray(e[13]) && e[13].length) entry.phrases.push(e[13].map(function (t) { return String(t) + ' '; }).join(''));
      // Its error codes (Matcher's codes_): the code words of its signature, aliases, error code.
      entry.codes = [];
      entry.phrases.slice(0, 1 + (Array.isArray(e[11]) ? e[11].length : 0) + (e[12] ? 1 : 0))
        .forEach(function (text) {
          nearWords(text).forEach(function (word) {
            if (isCodeWord(word) && entry.codes.indexOf(word) < 0) entry.codes.push(word);
          });
        });
      if (signature && signature.indexOf('\n') < 0) {
        entry.signatureRegex = new RegExp(quote(signature), 'iu');
        var run = literalRun(signature);
        entry.signatureNeeds = run ? [run] : null;
      }
      return entry;
    });
    ready = {entries: entries, read: reader(data), score: data.score || {}, near: null};
    if (prepared) prepared.set(data, ready);
    return ready;
  }

  // Larger first, field by field; then the smaller id (byte order: ids are ASCII).
  function compareHits(a, b) {
    for (var i = 0; i < a.rank.length; i++) {
      if (a.rank[i] !== b.rank[i]) return b.rank[i] - a.rank[i];
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : a.line - b.line;
  }

  // True when `lower` holds one of `needs`, or there are none.
  function holdsOne(lower, needs) {
    if (!needs) return true;
    for (var i = 0; i < needs.length; i++) if (lower.indexOf(needs[i]) >= 0) return true;
    return false;
  }

  // Matcher::hit_specificity: the most specific alternative that matches the hit's text in full.
  function hitSpecificity(entry, text) {
    for (var i = 0; i < entry.alternatives.length; i++) {
      var a = entry.alternatives[i];
      if (a[0] <= entry.regexSpecificity) break;
      if (a[1].test(text)) return a[0];
    }
    return entry.regexSpecificity;
  }

  // Matcher::holds_code: one of the entry's codes in the lowercased line, as a whole word.
  function holdsCode(entry, lower) {
    for (var i = 0; i < entry.codes.length; i++) {
      var code = entry.codes[i];
      for (var at = lower.indexOf(code); at >= 0; at = lower.indexOf(code, at + 1)) {
        var end = at + code.length;
        if ((at === 0 || !isWordChar(lower.charAt(at - 1))) &&
            (end === lower.length || !isWordChar(lower.charAt(end)))) return true;
      }
    }
    return false;
  }

  // hit_score of rank.h.
  function hitScore(score, bySignature, specificity, lineCodePoints, kind) {
    var evidence = Math.min(specificity, score.max_specificity) * score.specificity_weight +
      (bySignature ? score.signature_bonus : 0);
    var weight = kind === KIND_KEY ? score.key_line : kind === KIND_ERROR ? score.error_line :
      kind === KIND_CONTEXT ? score.context_line : 0;
    return evidence + Math.floor(coverage(Math.max(specificity, 0), lineCodePoints) / 10) + weight;
  }

  // The text's lines as matching reads them: `pieces`, the distinct normalized, non-empty
  // pieces of its lines ({text, lower, lowOnly, frame}; with `lowOnly`, matched only by the
  // entries whose signature declares a low severity; lines of a log repeat), `uses`, each line's
  // pieces in order as [line number, piece], and `nearLines`, the lines near matches may use.
  function readText(ready, text) {
    var read = ready.read;
    var distinct = [];
    var uses = [];
    var nearLines = [];
    var seen = new Map();  // low, after a frame, line -> its piece
    var lines = String(text).split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    var log = lines.filter(function (raw) { return trimAscii(raw) !== ''; }).length >= 2;
    var afterFrame = false;
    lines.forEach(function (raw, index) {
      var number = index + 1;
      var parts = pieces(raw);
      var trimmed = trimAscii(raw);
      if (log && parts.length === 1 && declaresLowSeverity(trimmed)) {
        var low = normalized(read, trimmed);
        if (!errorWords.test(low)) {
          piece(low, true, false);
          afterFrame = false;
          return;
        }
      }
      parts.forEach(function (part, p) {
        var line = normalized(read, trimAscii(part));
        var frame = afterFrame && p === 0;
        afterFrame = false;
        if (!line) return;
        var errorWord = errorWords.test(line);
        if ((errorWord || !log) && nearLines.length < ready.score.near_lines) {
          var kind = lineKind(read, line, frame, errorWord);
          if (kind !== KIND_CONTEXT) nearLines.push({line: number, text: line, kind: kind});
        }
        piece(line, false, frame);
        afterFrame = p === parts.length - 1 && isFrame(read, line);
      });
      function piece(line, lowOnly, frame) {
        var key = (lowOnly ? 'l' : 'a') + (frame ? 'f' : 'n') + line;
        var at = seen.get(key);
        if (at === undefined) {
          seen.set(key, at = distinct.length);
          // toLowerCase turns each ASCII letter into its lower case and no ASCII character into
          // anything else, so a prefilter text (ASCII, lower-cased) missing from `lower` is
          // missing from the line, ignoring ASCII case.
          distinct.push({text: line, lower: line.toLowerCase(), lowOnly: lowOnly, frame: frame, facts: null});
        }
        uses.push([number, at]);
      }
    });
    return {pieces: distinct, uses: uses, nearLines: nearLines};
  }

  // What a hit's rank reads of its line, found once per piece.
  function factsOf(ready, piece) {
    if (!piece.facts) {
      var errorWord = errorWords.test(piece.text);
      piece.facts = {errorLine: errorWord ? 1 : 0, codePoints: codePoints(piece.text, 0, piece.text.length),
        kind: lineKind(ready.read, piece.text, piece.frame, errorWord)};
    }
    return piece.facts;
  }

  // Whether matching `entry` on `pieces` runs its regex: it has one, and a piece it is matched
  // on holds one of its prefilter texts.
  function needsRegex(entry, pieces) {
    if (!entry.regex) return false;
    for (var u = 0; u < pieces.length; u++) {
      var piece = pieces[u];
      if ((!piece.lowOnly || entry.low) && holdsOne(piece.lower, entry.needs)) return true;
    }
    return false;
  }

  // The hits of entry `k` on `pieces`, in piece order: [piece, rank, by signature, begin, end,
  // kind] (UTF-16 indexes of the match). `beat`, when given, is called before each run of the
  // entry's regex.
  function entryHits(ready, k, pieces, beat) {
    var entry = ready.entries[k];
    var hits = [];
    for (var u = 0; u < pieces.length; u++) {
      var piece = pieces[u];
      if (piece.lowOnly && !entry.low) continue;
      var line = piece.text;
      for (var bySignature = 0; bySignature < 2; bySignature++) {
        var regex = bySignature ? entry.signatureRegex : entry.regex;
        if (!regex || !holdsOne(piece.lower, bySignature ? entry.signatureNeeds : entry.needs)) continue;
        if (beat && !bySignature) beat();
        var m = regex.exec(line);
        if (!m || m[0] === '') continue;
        var facts = factsOf(ready, piece);
        var end = m.index + m[0].length;
        var specificity = bySignature ? entry.signatureSpecificity : hitSpecificity(entry, m[0]);
        var total = hitScore(ready.score, bySignature === 1, specificity, facts.codePoints, facts.kind);
        if (!bySignature) {
          total -= entry.penalty;
          if (holdsCode(entry, piece.lower)) total += ready.score.code_bonus;
        }
        hits.push([u, [total, facts.errorLine, coverage(codePoints(line, m.index, end), facts.codePoints),
          specificity, bySignature, entry.fixRate], bySignature, m.index, end, facts.kind]);
      }
    }
    return hits;
  }

  // An entry's best hit so far, and the lines it matched.
  function offer(best, k, hit) {
    var slot = best.get(k);
    if (!slot) {
      best.set(k, {hit: hit, lines: 1, last: hit.line});
      return;
    }
    if (slot.last !== hit.line) {
      slot.lines++;
      slot.last = hit.line;
    }
    if (compareHits(hit, slot.hit) < 0) slot.hit = hit;
  }

  function ranked(ready, best, minScore, near) {
    var found = [];
    best.forEach(function (slot, k) {
      var entry = ready.entries[k];
      var hit = slot.hit;
      if (hit.rank[0] < minScore) return;
      found.push({
        id: entry.id, title: entry.title === null ? entry.signature : entry.title,
        titleIsSignature: entry.title === null, signature: entry.signature,
        line: hit.line, text: hit.text, begin: hit.begin, end: hit.end, lines: slot.lines,
        by: near ? 'words' : hit.bySignature ? 'signature' : 'regex', rank: hit.rank, near: near,
        score: {error_line: hit.rank[1], coverage: hit.rank[2], specificity: hit.rank[3],
          signature: hit.rank[4], fix_rate: hit.rank[5], total: hit.rank[0], line_kind: hit.kind},
      });
    });
    return found.sort(compareHits);
  }

  // Every entry that matches `text` with a score of data.score.min_score or more (or
  // `minScore`), best first, each with its best hit; when there is none, the near matches.
  // Entry by entry, so that a worker can say which entry's regex runs; `how` (all optional):
  // `done`, a Map of entries to their hits found before (by a worker stopped since); `skip`, a
  // Set of the entries whose regex must not run; `stop`, true when no regex may run any more;
  // `tried(k)` before entry k's regex first runs and `beat(k)` before each run, `matched(k,
  // hits)` once entry k is done (when its regex ran or it has hits). Returns {found, untried}:
  // untried, the entries left out because their regex would have run.
  function matchText(ready, text, minScore, how) {
    how = how || {};
    if (minScore === undefined || minScore === null) minScore = ready.score.min_score | 0;
    var read = readText(ready, text);
    var byPiece = read.pieces.map(function () { return []; });
    var untried = [];
    ready.entries.forEach(function (entry, k) {
      var hits = how.done && how.done.get(k);
      if (!hits) {
        var runs = needsRegex(entry, read.pieces);
        if (runs && (how.stop || (how.skip && how.skip.has(k)))) {
          untried.push(k);
          return;
        }
        if (runs && how.tried) how.tried(k);
        hits = entryHits(ready, k, read.pieces, runs && how.beat ? function () { how.beat(k); } : null);
        if ((runs || hits.length) && how.matched) how.matched(k, hits);
      }
      hits.forEach(function (h) { byPiece[h[0]].push([k, h[1], h[2], h[3], h[4], h[5]]); });
    });
    // Line by line, each piece's hits in entry order, as kbc match offers them.
    var best = new Map();
    read.uses.forEach(function (use) {
      var piece = read.pieces[use[1]];
      byPiece[use[1]].forEach(function (h) {
        offer(best, h[0], {id: ready.entries[h[0]].id, rank: h[1], line: use[0], text: piece.text,
          bySignature: h[2] === 1, begin: h[3], end: h[4], kind: h[5]});
      });
    });
    var found = ranked(ready, best, minScore, false);
    return {found: found.length ? found : nearMatches(ready, read.nearLines), untried: untried};
  }

  function nearMatches(ready, nearLines) {
    if (!ready.near) ready.near = nearIndex(ready.entries);
    var near = new Map();
    nearLines.forEach(function (line) {
      nearMatch(ready.near, ready.score, line.text).forEach(function (score, k) {
        offer(near, k, {id: ready.entries[k].id,
          rank: [score, line.kind === KIND_PLAIN ? 0 : 1, 0, 0, 0, ready.entries[k].fixRate],
          line: line.line, text: line.text, bySignature: false, begin: 0, end: 0, kind: line.kind});
      });
    });
    return ranked(ready, near, -Infinity, true);
  }

  // ---- the worker: matching off the page's thread ----
  //
  // This script is also the worker (a same-origin script, as a CSP allows): the page fetches
  // match.json and posts its text once ({type: 'data', json}; kbcMatch.match posts {data}), then
  // per paste {type: 'match', job, text, minScore, done, skip, stop}. The worker answers
  // {type: 'start'} when it begins, {type: 'try', entry} before an entry's regex first runs and
  // again every HEARTBEAT_MS while it runs, {type: 'done', entry, hits} after the entry, and
  // {type: 'found', found, untried} or {type: 'error', message} at the end, each with the job.
  var HEARTBEAT_MS = 50;

  function clock() {
    return typeof performance !== 'undefined' ? performance.now() : Date.now();
  }

  function serveWorker(scope) {
    var ready = null;
    var failure = 'no match data';
    scope.onmessage = function (event) {
      var message = event.data || {};
      if (message.type === 'data') {
        try {
          ready = prepare(typeof message.json === 'string' ? JSON.parse(message.json) : message.data);
        } catch (error) {
          failure = String(error && error.message || error);
        }
        return;
      }
      if (message.type !== 'match') return;
      var last = 0;
      var post = function (reply) {
        reply.job = message.job;
        last = clock();
        scope.postMessage(reply);
      };
      if (!ready) return post({type: 'error', message: failure});
      post({type: 'start'});
      try {
        var result = matchText(ready, message.text, message.minScore, {
          done: new Map(message.done || []), skip: new Set(message.skip || []), stop: !!message.stop,
          tried: function (k) { post({type: 'try', entry: k}); },
          beat: function (k) { if (clock() - last >= HEARTBEAT_MS) post({type: 'try', entry: k}); },
          matched: function (k, hits) { post({type: 'done', entry: k, hits: hits}); },
        });
        post({type: 'found', found: result.found, untried: result.untried.map(function (k) {
          var entry = ready.entries[k];
          return {id: entry.id, title: entry.title === null ? entry.signature : entry.title,
            titleIsSignature: entry.title === null};
        })});
      } catch (error) {
        post({type: 'error', message: String(error && error.message || error)});
      }
    };
  }

  if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
    serveWorker(self);
    return;
  }

  // ---- the page's side: one worker per match data, stopped when a regex runs too long ----

  // Milliseconds: one run of an entry's regex, and the regexes of one paste (kbcMatch.budget,
  // which tests may change). A regex past its budget is not run again in this page; a paste
  // past its budget runs no more regexes, and the entries whose regex was to run are untried.
  var budget = {regex: 250, paste: 3000};
  var script = document.currentScript || document.querySelector('script[src*="match.js"]');
  var workerUrl = script ? script.src : null;

  // source: {json: the text of match.json} or {data: it parsed}.
  function Session(source) {
    this.source = source;
    this.worker = null;
    this.slow = new Set();  // the entries whose regex ran past budget.regex
    this.queue = Promise.resolve();
    this.epoch = 0;
    this.jobs = 0;
    this.abort = null;  // stops the paste being matched
  }

  Session.prototype.spawn = function () {
    var self = this;
    if (!this.worker) {
      if (!workerUrl || typeof Worker === 'undefined') throw new Error('no worker');
      var worker = this.worker = new Worker(workerUrl);
      worker.onerror = function (event) {  // until a paste is sent: the next one starts anew
        if (event.preventDefault) event.preventDefault();
        if (worker === self.worker) self.kill();
      };
      worker.postMessage(typeof this.source.json === 'string' ?
        {type: 'data', json: this.source.json} : {type: 'data', data: this.source.data});
    }
    return this.worker;
  };

  Session.prototype.kill = function () {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  };

  // A Promise of {found, untried} for `text`; pastes are matched one after another.
  Session.prototype.match = function (text, minScore) {
    var self = this;
    var epoch = this.epoch;
    var answer = this.queue.then(function () {
      if (epoch !== self.epoch) throw new Error('cancelled');
      return self.run(text, minScore);
    });
    this.queue = answer.catch(function () {});
    return answer;
  };

  // Drops the pastes not answered yet (a newer one replaces them).
  Session.prototype.cancel = function () {
    this.epoch++;
    if (this.abort) this.abort(new Error('cancelled'));
  };

  Session.prototype.run = function (text, minScore) {
    var self = this;
    var job = ++this.jobs;
    var done = new Map();  // entry -> its hits, kept when a worker is stopped
    var spent = 0;         // ms this paste ran in the workers stopped
    var startedAt = -1;
    var stop = false;      // out of time: no more regexes
    var entry = -1;        // the entry whose regex runs
    var regexTimer = 0;
    var pasteTimer = 0;
    return new Promise(function (resolve, reject) {
      function clear() {
        clearTimeout(regexTimer);
        clearTimeout(pasteTimer);
      }
      function fail(error) {
        clear();
        self.abort = null;
        self.kill();
        reject(error);
      }
      function send() {
        var worker;
        try {
          worker = self.spawn();
        } catch (error) {
          return fail(error);
        }
        // A stopped worker's messages still queued are not this worker's.
        worker.onmessage = function (event) {
          if (worker === self.worker) answer(event.data || {});
        };
        worker.onerror = function (event) {
          if (event.preventDefault) event.preventDefault();
          if (worker === self.worker) fail(new Error(event.message || 'the worker failed'));
        };
        worker.postMessage({type: 'match', job: job, text: text, minScore: minScore,
          done: Array.from(done), skip: Array.from(self.slow), stop: stop});
      }
      // Stops the worker and carries on in a fresh one, without what took too long.
      function restart() {
        clear();
        if (startedAt >= 0) spent += clock() - startedAt;
        startedAt = -1;
        entry = -1;
        self.kill();
        send();
      }
      function answer(m) {
        if (m.job !== job) return;
        if (m.type === 'start') {
          startedAt = clock();
          if (!stop) {
            pasteTimer = setTimeout(function () {
              stop = true;
              restart();
            }, Math.max(0, budget.paste - spent));
          }
        } else if (m.type === 'try') {
          entry = m.entry;
          clearTimeout(regexTimer);
          regexTimer = setTimeout(function () {
            self.slow.add(entry);
            restart();
          }, budget.regex);
        } else if (m.type === 'done') {
          clearTimeout(regexTimer);
          entry = -1;
          done.set(m.entry, m.hits);
        } else if (m.type === 'found') {
          clear();
          self.abort = null;
          resolve({found: m.found, untried: m.untried});
        } else if (m.type === 'error') {
          fail(new Error(m.message));
        }
      }
      self.abort = fail;
      send();
    });
  };

  var sessions = {};  // absolute URL of match.json -> its Session
  var dataSessions = typeof WeakMap !== 'undefined' ? new WeakMap() : null;  // kbcMatch.match's

  // ---- page behaviour ----

  var loads = {};  // absolute URL -> Promise of the Session of match.json

  // The text of match.json goes to the worker unparsed: the page never parses it.
  function load(url) {
    if (!loads[url]) {
      // fetch() on a file:// page logs an error even when caught, so it is not tried.
      loads[url] = location.protocol === 'file:' ?
        Promise.reject(new Error('file://')) :
        fetch(url).then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.text();
        }).then(function (json) {
          return sessions[url] || (sessions[url] = new Session({json: json}));
        });
      loads[url].catch(function () { delete loads[url]; });  // the next attempt retries
    }
    return loads[url];
  }

  // The matched line, cut to about 160 code points around the match, with the match marked.
  function shownLine(hit) {
    var chars = Array.from(hit.text);
    var begin = codePoints(hit.text, 0, hit.begin);
    var end = begin + codePoints(hit.text, hit.begin, hit.end);
    var from = 0;
    var to = chars.length;
    if (chars.length > SHOWN_CODE_POINTS) {
      from = Math.max(0, begin - 40);
      to = Math.min(chars.length, from + SHOWN_CODE_POINTS);
    }
    var span = document.createElement('span');
    span.className = 'paste-text';
    var mark = document.createElement('mark');
    mark.textContent = chars.slice(Math.min(begin, to), Math.min(end, to)).join('');
    span.append((from > 0 ? '…' : '') + chars.slice(from, Math.min(begin, to)).join(''), mark,
      chars.slice(Math.min(end, to), to).join('') + (to < chars.length ? '…' : ''));
    return span;
  }

  function setUp(form) {
    var textarea = form.querySelector('textarea');
    var results = document.getElementById(form.getAttribute('data-results'));
    var status = document.getElementById(form.getAttribute('data-status'));
    if (!textarea || !results || !status) return;
    var dataUrl = new URL(form.getAttribute('data-match') || 'match.json', location.href).href;
    var up = form.getAttribute('data-up') || '';
    // The language of signatures, and of the titles shown untranslated.
    var baseLang = form.getAttribute('data-base-lang') || '';
    var translated = baseLang !== document.documentElement.lang;
    var generation = 0;
    function text(name) { return form.getAttribute('data-' + name) || ''; }
    // Under the results: the entries not tried, their regex being too slow in this browser.
    var note = document.createElement('p');
    note.id = results.id + '-untried';
    note.className = 'paste-note';
    note.hidden = true;
    note.setAttribute('aria-live', 'polite');
    results.parentNode.insertBefore(note, results.nextSibling);

    function link(entry) {
      var a = document.createElement('a');
      a.href = up + 'entries/' + entry.id + '.html';
      a.textContent = entry.title;
      if (translated && entry.titleIsSignature) a.lang = baseLang;
      return a;
    }

    function renderUntried(untried) {
      var parts = [];
      if (untried && untried.length) {
        parts.push((text('untried') || 'Not tried, because matching them took too long in this browser ({n}):')
          .replace('{n}', String(untried.length)) + ' ');
        untried.slice(0, MAX_SHOWN).forEach(function (entry, i) {
          if (i) parts.push(', ');
          parts.push(link(entry));
        });
        if (untried.length > MAX_SHOWN) {
          parts.push(' ' + (text('untried-more') || 'and {n} more').replace('{n}', String(untried.length - MAX_SHOWN)));
        }
      }
      note.replaceChildren.apply(note, parts);
      note.hidden = !parts.length;
    }

    function render(found, untried) {
      var items = found.slice(0, MAX_SHOWN).map(function (hit) {
        var li = document.createElement('li');
        li.appendChild(link(hit));
        if (!hit.titleIsSignature) {
          var signature = document.createElement('code');
          signature.lang = baseLang;
          signature.textContent = hit.signature;
          li.append(' ', signature);
        }
        var p = document.createElement('p');
        var where = document.createElement('span');
        where.className = 'paste-line';
        where.textContent = text('line-label').replace('{n}', String(hit.line));
        p.append(where, ' ', shownLine(hit));
        li.appendChild(p);
        return li;
      });
      results.replaceChildren.apply(results, items);
      status.textContent = !found.length ? text('no-results') :
        text(found[0].near ? 'near-label' : 'results-label').replace('{n}', String(found.length));
      renderUntried(untried);
    }

    function run() {
      var pasted = textarea.value;
      var current = ++generation;
      if (!trimAscii(pasted)) {
        results.replaceChildren();
        renderUntried(null);
        status.textContent = text('empty');
        return;
      }
      var pending = true;
      setTimeout(function () {
        if (pending && current === generation) status.textContent = text('loading');
      }, 150);
      load(dataUrl).then(function (session) {
        session.cancel();  // an earlier paste still matched
        return session.match(pasted);
      }).then(function (answer) {
        pending = false;
        if (current === generation) render(answer.found, answer.untried);
      }, function () {
        pending = false;
        if (current !== generation) return;
        results.replaceChildren();
        renderUntried(null);
        status.textContent = location.protocol === 'file:' ? text('needs-http') : text('load-failed');
      });
    }

    textarea.addEventListener('focus', function () {
      // Loads match.json and starts the worker, which reads it before the first paste.
      if (location.protocol !== 'file:') {
        load(dataUrl).then(function (session) { session.spawn(); }).catch(function () {});
      }
    });
    textarea.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      run();
    });
    var section = form.closest('section');
    if (section) section.hidden = false;  // hidden for readers without JavaScript
  }

  // For tests. match(data, text, minScore): a Promise of the hits, as the box finds them (in a
  // worker, within `budget`); the hits' `untried` lists the entries left out.
  window.kbcMatch = {
    match: function (data, text, minScore) {
      var session = dataSessions && dataSessions.get(data);
      if (!session) {
        session = new Session({data: data});
        if (dataSessions) dataSessions.set(data, session);
      }
      return session.match(text, minScore).then(function (answer) {
        answer.found.untried = answer.untried;
        return answer.found;
      });
    },
    prepare: prepare, trim: trimAscii, budget: budget,
  };

  function start() {
    var forms = document.querySelectorAll('form.paste-form');
    for (var i = 0; i < forms.length; i++) setUp(forms[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
