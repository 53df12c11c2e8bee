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
// and trailing ASCII white space, is matched by every entry's regex and by its signature as
// literal text ignoring case; the leftmost match counts, and an empty one is no hit. A hit ranks
// by [error_line, coverage, specificity, signature, fix_rate], larger first, then by id; an
// entry keeps its best hit, the earlier line on a tie. In a log (two lines or more that are not
// blank), a line of at most 16 KiB that declares a low severity and has no error word is
// matched only by the entries whose signature is such a line.
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
    'violation', 'unexpected'];

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

  // The entries of match.json with their regexes compiled, once per loaded file.
  var prepared = typeof WeakMap !== 'undefined' ? new WeakMap() : null;
  function prepare(data) {
    var entries = prepared && prepared.get(data);
    if (entries) return entries;
    entries = (data && data.entries || []).map(function (e) {
      var signature = trimAscii(String(e[1] || ''));
      var entry = {
        id: String(e[0]), signature: String(e[1] || ''), title: e[2] === null ? null : String(e[2]),
        regex: null, signatureRegex: null,
        regexSpecificity: e[5] | 0, signatureSpecificity: e[6] | 0, fixRate: e[7] | 0,
        needs: Array.isArray(e[8]) && e[8].length ? e[8].map(String) : null,
        signatureNeeds: null,
        low: isLowLine(trimAscii(signature.split('\n')[0])),  // matched on a log's low lines too
      };
      if (typeof e[3] === 'string') {
        try {
          entry.regex = new RegExp(e[3], e[4]);
        } catch (error) {
          entry.regexError = String(error && error.message || error);  // matches by signature only
        }
      }
      if (signature && signature.indexOf('\n') < 0) {
        entry.signatureRegex = new RegExp(quote(signature), 'iu');
        var run = literalRun(signature);
        entry.signatureNeeds = run ? [run] : null;
      }
      return entry;
    });
    if (prepared) prepared.set(data, entries);
    return entries;
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

  // The hits of one trimmed, non-empty piece of a line, in entry order: [entry, rank, by
  // signature, begin, end] (UTF-16 indexes of the match); with `lowOnly`, of the entries whose
  // signature declares a low severity only.
  function matchPiece(entries, line, lowOnly) {
    var hits = [];
    var errorLine = -1;
    var lineCodePoints = 0;
    // toLowerCase turns each ASCII letter into its lower case and no ASCII character into
    // anything else, so a prefilter text (ASCII, lower-cased) missing from `lower` is missing
    // from the line, ignoring ASCII case.
    var lower = line.toLowerCase();
    for (var k = 0; k < entries.length; k++) {
      var entry = entries[k];
      if (lowOnly && !entry.low) continue;
      for (var bySignature = 0; bySignature < 2; bySignature++) {
        var regex = bySignature ? entry.signatureRegex : entry.regex;
        if (!regex || !holdsOne(lower, bySignature ? entry.signatureNeeds : entry.needs)) continue;
        var m = regex.exec(line);
        if (!m || m[0] === '') continue;
        if (errorLine < 0) {
          errorLine = errorWords.test(line) ? 1 : 0;
          lineCodePoints = codePoints(line, 0, line.length);
        }
        var end = m.index + m[0].length;
        hits.push([k, [errorLine, coverage(codePoints(line, m.index, end), lineCodePoints),
          bySignature ? entry.signatureSpecificity : entry.regexSpecificity, bySignature, entry.fixRate],
        bySignature, m.index, end]);
      }
    }
    return hits;
  }

  // Every entry that matches `text`, best first, each with its best hit.
  function match(data, text) {
    var entries = prepare(data);
    var best = new Map();
    var seen = [new Map(), new Map()];  // piece -> its hits, [low line?]: lines of a log repeat
    var lines = String(text).split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    var log = lines.filter(function (raw) { return trimAscii(raw) !== ''; }).length >= 2;
    lines.forEach(function (raw, index) {
      var number = index + 1;
      var parts = pieces(raw);
      var low = log && parts.length === 1 && isLowLine(trimAscii(raw)) ? 1 : 0;
      parts.forEach(function (piece) {
        var line = trimAscii(piece);
        if (!line) return;
        var hits = seen[low].get(line);
        if (!hits) seen[low].set(line, hits = matchPiece(entries, line, low === 1));
        hits.forEach(function (h) {
          var entry = entries[h[0]];
          var hit = {id: entry.id, rank: h[1], line: number, text: line, bySignature: h[2] === 1,
            begin: h[3], end: h[4]};
          var slot = best.get(h[0]);
          if (!slot) {
            best.set(h[0], {hit: hit, lines: 1, last: number});
            return;
          }
          if (slot.last !== number) {
            slot.lines++;
            slot.last = number;
          }
          if (compareHits(hit, slot.hit) < 0) slot.hit = hit;
        });
      });
    });
    var found = [];
    best.forEach(function (slot, k) {
      var entry = entries[k];
      var hit = slot.hit;
      found.push({
        id: entry.id, title: entry.title === null ? entry.signature : entry.title,
        titleIsSignature: entry.title === null, signature: entry.signature,
        line: hit.line, text: hit.text, begin: hit.begin, end: hit.end, lines: slot.lines,
        by: hit.bySignature ? 'signature' : 'regex', rank: hit.rank,
        score: {error_line: hit.rank[0], coverage: hit.rank[1], specificity: hit.rank[2],
          signature: hit.rank[3], fix_rate: hit.rank[4]},
      });
    });
    return found.sort(compareHits);
  }

  // ---- page behaviour ----

  var loads = {};  // absolute URL -> Promise of match.json

  function load(url) {
    if (!loads[url]) {
      // fetch() on a file:// page logs an error even when caught, so it is not tried.
      loads[url] = location.protocol === 'file:' ?
        Promise.reject(new Error('file://')) :
        fetch(url).then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.json();
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

    function render(found) {
      var items = found.slice(0, MAX_SHOWN).map(function (hit) {
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = up + 'entries/' + hit.id + '.html';
        a.textContent = hit.title;
        if (translated && hit.titleIsSignature) a.lang = baseLang;
        li.appendChild(a);
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
      status.textContent = found.length ?
        text('results-label').replace('{n}', String(found.length)) : text('no-results');
    }

    function run() {
      var pasted = textarea.value;
      var current = ++generation;
      if (!trimAscii(pasted)) {
        results.replaceChildren();
        status.textContent = text('empty');
        return;
      }
      var pending = true;
      setTimeout(function () {
        if (pending && current === generation) status.textContent = text('loading');
      }, 150);
      load(dataUrl).then(function (data) {
        pending = false;
        if (current === generation) render(match(data, pasted));
      }, function () {
        pending = false;
        if (current !== generation) return;
        results.replaceChildren();
        status.textContent = location.protocol === 'file:' ? text('needs-http') : text('load-failed');
      });
    }

    textarea.addEventListener('focus', function () {
      if (location.protocol !== 'file:') load(dataUrl).catch(function () {});
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

  window.kbcMatch = {match: match, prepare: prepare, trim: trimAscii};

  function start() {
    var forms = document.querySelectorAll('form.paste-form');
    for (var i = 0; i < forms.length; i++) setUp(forms[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
