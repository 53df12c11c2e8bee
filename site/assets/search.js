// Client-side search for the site kbc builds. Plain script, no dependencies.
// kbc writes one search-index.json per language (compiler/site/search_index.cc). The
// tokenizer below must stay identical to search_tokens() there: the cases in
// tests/browser/tokenizer-cases.json hold both sides to the same rules.
(function () {
  'use strict';

  var MAX_SHOWN = 50;

  function isCjk(c) {
    return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
      (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xac00 && c <= 0xd7af) || (c >= 0x20000 && c <= 0x2fa1f);
  }

  // ASCII letters and digits make words (lowercased); CJK runs make overlapping pairs
  // (a run of one character is itself a token); everything else separates.
  function tokenize(text) {
    var tokens = [];
    var word = '';
    var run = [];
    function endWord() {
      if (word) tokens.push(word);
      word = '';
    }
    function endRun() {
      if (run.length === 1) tokens.push(run[0]);
      for (var k = 0; k + 1 < run.length; k++) tokens.push(run[k] + run[k + 1]);
      run = [];
    }
    for (var ch of String(text)) {
      var c = ch.codePointAt(0);
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
        endRun();
        word += ch;
      } else if (c >= 0x41 && c <= 0x5a) {
        endRun();
        word += String.fromCharCode(c + 32);
      } else if (isCjk(c)) {
        endWord();
        run.push(ch);
      } else {
        endWord();
        endRun();
      }
    }
    endWord();
    endRun();
    return tokens;
  }

  // First position in the sorted array `words` whose word is >= `key`.
  function lowerBound(words, key) {
    var lo = 0;
    var hi = words.length;
    while (lo < hi) {
      var mid = (lo + hi) >>> 1;
      if (words[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Best score of every document for one token, into `best` (indexed by doc); returns the
  // docs that got one.
  function scoreToken(index, token, best) {
    var touched = [];
    function take(postings, factor) {
      for (var k = 0; k + 1 < postings.length; k += 2) {
        var doc = postings[k];
        var s = postings[k + 1] * factor;
        if (!best[doc]) touched.push(doc);
        if (s > best[doc]) best[doc] = s;
      }
    }
    if (token.charCodeAt(0) < 0x80) {
      var words = index.words || [];
      for (var i = lowerBound(words, token); i < words.length; i++) {
        var w = words[i];
        if (w.lastIndexOf(token, 0) !== 0) break;
        take(index.word_postings[i] || [], w === token ? 2 : 1);
      }
    } else if (index.grams && Object.prototype.hasOwnProperty.call(index.grams, token)) {
      take(index.grams[token], 2);
    }
    return touched;
  }

  // Position of every doc in (title, id) order, computed once per index, so that sorting
  // results is numeric: score descending, then title (localeCompare), then id.
  var ranks = typeof WeakMap !== 'undefined' ? new WeakMap() : null;
  function titleRanks(index) {
    var rank = ranks && ranks.get(index);
    if (rank) return rank;
    var docs = index.docs;
    var compare = typeof Intl !== 'undefined' ? new Intl.Collator().compare :
      function (a, b) { return a.localeCompare(b); };
    var order = docs.map(function (_, i) { return i; });
    order.sort(function (a, b) {
      var ida = String(docs[a][3]);
      var idb = String(docs[b][3]);
      return compare(String(docs[a][1]), String(docs[b][1])) || (ida < idb ? -1 : ida > idb ? 1 : 0);
    });
    rank = new Int32Array(docs.length);
    for (var i = 0; i < order.length; i++) rank[order[i]] = i;
    if (ranks) ranks.set(index, rank);
    return rank;
  }

  // All documents matching every token of `query` (AND), best first.
  function search(index, query) {
    var tokens = tokenize(query);
    if (!tokens.length || !index || !index.docs) return [];
    var n = index.docs.length;
    var total = new Float64Array(n);
    var matched = new Int32Array(n);  // how many tokens scored on each doc
    var candidates = null;
    for (var t = 0; t < tokens.length; t++) {
      var best = new Float64Array(n);
      var touched = scoreToken(index, tokens[t], best);
      var next = [];
      for (var j = 0; j < touched.length; j++) {
        var doc = touched[j];
        if (best[doc] > 0 && doc < n && matched[doc] === t) {
          matched[doc] = t + 1;
          total[doc] += best[doc];
          next.push(doc);
        }
      }
      candidates = next;
      if (!candidates.length) return [];
    }
    var rank = titleRanks(index);
    candidates.sort(function (a, b) { return total[b] - total[a] || rank[a] - rank[b]; });
    return candidates.map(function (doc) {
      var d = index.docs[doc];
      return {url: d[0], title: d[1], code: d[2], id: d[3], snippet: d[4], score: total[doc]};
    });
  }

  // ---- page behaviour ----

  var indexes = {};  // absolute index URL -> Promise of the parsed index

  function loadIndex(url) {
    if (!indexes[url]) {
      // Browsers refuse fetch() on file:// pages and log an error even when it is caught,
      // so a page opened from disk does not try.
      indexes[url] = location.protocol === 'file:' ?
        Promise.reject(new Error('file://')) :
        fetch(url).then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.json();
        });
      // Forget a failed load so that the next attempt retries.
      indexes[url].catch(function () { delete indexes[url]; });
    }
    return indexes[url];
  }

  function isSearchPage() {
    return /(^|\/)search\.html$/.test(location.pathname);
  }

  // The page's own words for it (the UI strings search_needs_http and search_load_failed).
  function loadFailedText(form) {
    var name = location.protocol === 'file:' ? 'data-needs-http' : 'data-load-failed';
    return form.getAttribute(name) || '';
  }

  function setUp(form) {
    var input = form.querySelector('input[name="q"]');
    var results = document.getElementById(form.getAttribute('data-results'));
    var status = document.getElementById(form.getAttribute('data-status'));
    if (!input || !results || !status) return;
    var indexUrl = new URL(form.getAttribute('data-index') || 'search-index.json', location.href).href;
    var up = form.getAttribute('data-up') || '';
    var noResults = form.getAttribute('data-no-results') || '';
    var resultsLabel = form.getAttribute('data-results-label') || '{n}';
    var generation = 0;

    function clear() {
      results.replaceChildren();
      status.textContent = '';
    }

    function render(found) {
      var items = found.slice(0, MAX_SHOWN).map(function (r) {
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = up + r.url;
        a.textContent = r.title;
        li.appendChild(a);
        if (r.code) {
          var code = document.createElement('code');
          code.textContent = r.code;
          li.append(' ', code);
        }
        if (r.snippet) {
          var p = document.createElement('p');
          p.textContent = r.snippet;
          li.appendChild(p);
        }
        return li;
      });
      results.replaceChildren.apply(results, items);
      status.textContent = found.length ?
        resultsLabel.replace('{n}', String(found.length)) : noResults;
    }

    function keepQueryInUrl(query) {
      if (!isSearchPage() || !window.history || !history.replaceState) return;
      var url = new URL(location.href);
      if (query) url.searchParams.set('q', query);
      else url.searchParams.delete('q');
      if (url.href !== location.href) history.replaceState(history.state, '', url.href);
    }

    function run() {
      var query = input.value;
      var current = ++generation;
      keepQueryInUrl(query.trim());
      if (!tokenize(query).length) {
        clear();
        return;
      }
      loadIndex(indexUrl).then(function (index) {
        if (current === generation) render(search(index, query));
      }, function () {
        if (current !== generation) return;
        results.replaceChildren();
        status.textContent = loadFailedText(form);
      });
    }

    function prefetch() {
      loadIndex(indexUrl).catch(function () {});
    }

    input.addEventListener('focus', prefetch);
    input.addEventListener('input', run);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      run();
    });

    var initial = new URLSearchParams(location.search).get('q');
    if (initial) {
      input.value = initial;
      run();
    }
  }

  window.kbcSearch = {tokenize: tokenize, search: search};

  function start() {
    var forms = document.querySelectorAll('form.search');
    for (var i = 0; i < forms.length; i++) setUp(forms[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
