// Client-side search for the site kbc builds. Plain script, no dependencies.
// kbc writes each language's index split into files under <lang>/search/
// (compiler/search/search_index.h): meta.json, term shards t<k>.json and document chunks
// d<k>.json; a query fetches meta.json, the shards of its words and the chunks of the results
// it shows. The tokenizer below must stay identical to search_tokens() there: the cases in
// tests/browser/tokenizer-cases.json hold both sides to the same rules.
//
// Ranking: documents that have every word of the query first, then those that have fewer; within
// each group, the sum over the query's words of idf (BM25's) x the weight of the best field that
// holds the word (error code 10, title and signature 8, id 6, tags and aliases 5, domain 2, root
// cause 1), where a word that only starts a term (prefix matching of the word being typed, or of
// a word that matches nothing whole) counts 0.6; two adjacent words of the query that are also
// adjacent in the signature, title, error code or tags add half their pair's score (phrases).
(function () {
  'use strict';

  var PAGE = 10;          // results per page on the search page
  var DROPDOWN = 8;       // results in the header's list
  var PREFIX_FACTOR = 0.6;
  var PHRASE_FACTOR = 0.5;
  var MAX_PREFIX_SHARDS = 3;

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

  function isWord(token) {
    return token.charCodeAt(0) < 0x80;
  }

  // Code point order (kbc sorts terms by UTF-8 bytes, which is the same order).
  function compare(a, b) {
    var ia = a[Symbol.iterator]();
    var ib = b[Symbol.iterator]();
    for (;;) {
      var x = ia.next();
      var y = ib.next();
      if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
      var d = x.value.codePointAt(0) - y.value.codePointAt(0);
      if (d) return d;
    }
  }

  // The shard whose range holds `term`: the last one whose first term is <= it.
  function shardOf(shards, term) {
    var lo = 0;
    var hi = shards.length;
    while (lo < hi) {
      var mid = (lo + hi) >>> 1;
      if (compare(shards[mid], term) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(0, lo - 1);
  }

  function startsWith(text, prefix) {
    return text.lastIndexOf(prefix, 0) === 0;
  }

  // ---- loading ----

  var cache = {};  // URL -> Promise of parsed JSON

  function getJson(url) {
    if (!cache[url]) {
      // Browsers refuse fetch() on file:// pages and log an error even when it is caught,
      // so a page opened from disk does not try.
      cache[url] = location.protocol === 'file:' ?
        Promise.reject(new Error('file://')) :
        fetch(url).then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.json();
        });
      // Forget a failed load so that the next attempt retries.
      cache[url].catch(function () { delete cache[url]; });
    }
    return cache[url];
  }

  // An index: its folder's URL (ending in '/'), loaded lazily.
  function Index(dir) {
    this.dir = dir;
  }
  Index.prototype.meta = function () {
    return getJson(this.dir + 'meta.json');
  };
  Index.prototype.shard = function (k) {
    return getJson(this.dir + 't' + k + '.json');
  };
  // The display records of documents `docs`, in that order.
  Index.prototype.documents = function (docs) {
    var dir = this.dir;
    return this.meta().then(function (meta) {
      var size = meta.doc_chunk;
      return Promise.all(docs.map(function (doc) {
        return getJson(dir + 'd' + Math.floor(doc / size) + '.json').then(function (chunk) {
          var d = chunk[doc % size];
          return {doc: doc, url: d[0], title: d[1], code: d[2], id: d[3], domain: d[4],
            snippet: d[5]};
        });
      }));
    });
  };

  // The postings of every term a query token reaches: [{term, exact, postings}], loading the
  // shards they live in. `prefix`: also the terms that start with the token.
  function lookUp(index, meta, token, prefix) {
    var first = shardOf(meta.shards, token);
    var last = first;
    if (prefix) {
      while (last + 1 < meta.shards.length && last - first + 1 < MAX_PREFIX_SHARDS &&
             startsWith(meta.shards[last + 1], token)) last++;
    }
    var loads = [];
    for (var k = first; k <= last; k++) loads.push(index.shard(k));
    return Promise.all(loads).then(function (shards) {
      var found = [];
      shards.forEach(function (shard) {
        for (var term in shard) {
          if (!Object.prototype.hasOwnProperty.call(shard, term)) continue;
          if (term === token) found.push({term: term, exact: true, postings: shard[term]});
          else if (prefix && startsWith(term, token) && term.indexOf(' ') < 0)
            found.push({term: term, exact: false, postings: shard[term]});
        }
      });
      return found;
    });
  }

  function idf(n, df) {
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  // Best score of each document for one token's terms: Map doc -> score.
  function tokenScores(n, found) {
    var best = new Map();
    found.forEach(function (hit) {
      var p = hit.postings;
      var weight = idf(n, p[0]) * (hit.exact ? 1 : PREFIX_FACTOR);
      for (var k = 1; k + 1 < p.length; k += 2) {
        var s = p[k + 1] * weight;
        if (!(best.get(p[k]) >= s)) best.set(p[k], s);
      }
    });
    return best;
  }

  // The ranked documents for `text`: Promise of {docs: [doc...], scores, words (the query's
  // tokens that matched something, for highlighting)}.
  function rank(index, text, options) {
    var all = tokenize(text);
    var seen = {};
    var tokens = all.filter(function (t) {
      if (seen[t]) return false;
      seen[t] = true;
      return true;
    });
    var typing = !(options && options.complete) && /[0-9A-Za-z]$/.test(String(text));
    return index.meta().then(function (meta) {
      var n = meta.docs;
      var perToken = tokens.map(function (token, i) {
        var open = isWord(token) && typing && i === tokens.length - 1 && token === all[all.length - 1];
        return lookUp(index, meta, token, open).then(function (found) {
          if (found.length || !isWord(token) || token.length < 3 || open) return found;
          return lookUp(index, meta, token, true);  // a word that matches nothing whole
        });
      });
      var pairs = [];
      for (var k = 0; k + 1 < all.length; k++) {
        if (isWord(all[k]) && isWord(all[k + 1])) pairs.push(all[k] + ' ' + all[k + 1]);
      }
      var perPair = pairs.map(function (pair) { return lookUp(index, meta, pair, false); });
      return Promise.all([Promise.all(perToken), Promise.all(perPair)]).then(function (r) {
        var total = new Map();
        var covered = new Map();
        var words = [];
        r[0].forEach(function (found, i) {
          if (found.length) words.push(tokens[i]);
          tokenScores(n, found).forEach(function (s, doc) {
            total.set(doc, (total.get(doc) || 0) + s);
            covered.set(doc, (covered.get(doc) || 0) + 1);
          });
        });
        r[1].forEach(function (found) {
          tokenScores(n, found).forEach(function (s, doc) {
            if (total.has(doc)) total.set(doc, total.get(doc) + s * PHRASE_FACTOR);
          });
        });
        var docs = Array.from(total.keys());
        docs.sort(function (a, b) {
          return covered.get(b) - covered.get(a) || total.get(b) - total.get(a) || a - b;
        });
        var complete = 0;
        while (complete < docs.length && covered.get(docs[complete]) === tokens.length) complete++;
        return {docs: docs, scores: total, words: words, complete: complete, meta: meta};
      });
    });
  }

  // English words for a Chinese query from the index's glossary (longest terms first).
  function glossaryWords(meta, text) {
    var glossary = meta.glossary || {};
    var terms = Object.keys(glossary).sort(function (a, b) { return b.length - a.length; });
    var rest = String(text);
    var words = [];
    terms.forEach(function (term) {
      if (rest.indexOf(term) >= 0) {
        words.push(glossary[term]);
        rest = rest.split(term).join(' ');
      }
    });
    return words.join(' ');
  }

  // A query: Promise of {ranked, fallback: English words searched instead or ''}.
  function find(index, text, options) {
    return rank(index, text, options).then(function (ranked) {
      var hasCjk = tokenize(text).some(function (t) { return !isWord(t); });
      var cjkHit = ranked.words.some(function (t) { return !isWord(t); });
      if (!hasCjk || cjkHit) return {ranked: ranked, fallback: ''};
      var words = glossaryWords(ranked.meta, text);
      if (!words) return {ranked: ranked, fallback: ''};
      return rank(index, words, {complete: true}).then(function (english) {
        if (!english.docs.length) return {ranked: ranked, fallback: ''};
        return {ranked: english, fallback: words};
      });
    });
  }

  // ---- highlighting ----

  // `text` as nodes, with the parts that match `words` (query tokens) in <mark>: ASCII words
  // that start with a query word, and CJK text equal to a query token.
  function highlight(text, words) {
    text = String(text || '');
    var marks = [];  // [start, end) in UTF-16 units
    var re = /[0-9A-Za-z]+/g;
    var m;
    var ascii = words.filter(isWord);
    while ((m = re.exec(text))) {
      var lower = m[0].toLowerCase();
      for (var i = 0; i < ascii.length; i++) {
        if (startsWith(lower, ascii[i])) {
          marks.push([m.index, m.index + Math.min(lower.length, ascii[i].length)]);
          break;
        }
      }
    }
    words.filter(function (w) { return !isWord(w); }).forEach(function (w) {
      for (var at = text.indexOf(w); at >= 0; at = text.indexOf(w, at + 1)) marks.push([at, at + w.length]);
    });
    marks.sort(function (a, b) { return a[0] - b[0]; });
    var fragment = document.createDocumentFragment();
    var pos = 0;
    marks.forEach(function (mark) {
      var start = Math.max(mark[0], pos);
      if (start >= mark[1]) return;
      if (start > pos) fragment.appendChild(document.createTextNode(text.slice(pos, start)));
      var el = document.createElement('mark');
      el.textContent = text.slice(start, mark[1]);
      fragment.appendChild(el);
      pos = mark[1];
    });
    if (pos < text.length) fragment.appendChild(document.createTextNode(text.slice(pos)));
    return fragment;
  }

  // ---- page behaviour ----

  var lang = document.documentElement.lang || 'en';
  var plural = typeof Intl !== 'undefined' && Intl.PluralRules ? new Intl.PluralRules(lang) : null;

  function formatCount(form, n) {
    var kind = plural ? plural.select(n) : (n === 1 ? 'one' : 'other');
    var text = form.getAttribute('data-results-' + kind) || form.getAttribute('data-results-other') || '{n}';
    return text.replace('{n}', n.toLocaleString(lang));
  }

  function isSearchPage() {
    return /(^|\/)search\.html$/.test(location.pathname);
  }

  // The page's own words for a load failure (the UI strings search_needs_http and
  // search_load_failed).
  function loadFailedText(form) {
    var name = location.protocol === 'file:' ? 'data-needs-http' : 'data-load-failed';
    return form.getAttribute(name) || '';
  }

  function indexOf(form) {
    return new Index(new URL(form.getAttribute('data-search') || 'search/', location.href).href);
  }

  function resultItem(form, r, words, compact) {
    var li = document.createElement('li');
    var a = document.createElement('a');
    a.href = (form.getAttribute('data-up') || '') + r.url;
    a.appendChild(highlight(r.title, words));
    li.appendChild(a);
    var meta = document.createElement('span');
    meta.className = 'result-meta';
    if (r.domain) {
      var domain = document.createElement('span');
      domain.className = 'result-domain';
      domain.textContent = r.domain;
      meta.appendChild(domain);
    }
    if (r.code) {
      var code = document.createElement('code');
      code.appendChild(highlight(r.code, words));
      meta.appendChild(code);
    }
    if (meta.childNodes.length) li.append(' ', meta);
    if (r.snippet && !compact) {
      var p = document.createElement('p');
      p.appendChild(highlight(r.snippet, words));
      li.appendChild(p);
    }
    return li;
  }

  // Arrow keys from the box (`input`) into the links of `list` and through them, within
  // `container`.
  function arrowKeys(container, input, list) {
    container.addEventListener('keydown', function (event) {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      var links = Array.prototype.slice.call(list.querySelectorAll('li > a'));
      var at = links.indexOf(document.activeElement);
      if (event.target === input) {
        if (event.key !== 'ArrowDown' || !links.length || list.hidden) return;
        at = 0;
      } else if (at < 0) {
        return;
      } else if (event.key === 'ArrowDown') {
        at = Math.min(at + 1, links.length - 1);
      } else if (at === 0) {
        event.preventDefault();
        input.focus();
        return;
      } else {
        at -= 1;
      }
      event.preventDefault();
      links[at].focus();
    });
  }

  // The search page's form: ranked results, a page at a time.
  function setUpResults(form, input) {
    var results = document.getElementById(form.getAttribute('data-results'));
    var status = document.getElementById(form.getAttribute('data-status'));
    if (!results || !status) return;
    var index = indexOf(form);
    var more = document.createElement('button');
    more.type = 'button';
    more.className = 'more-results';
    more.hidden = true;
    results.after(more);
    var generation = 0;
    var state = null;

    function showPage() {
      var current = generation;
      var docs = state.ranked.docs.slice(state.shown, state.shown + PAGE);
      return index.documents(docs).then(function (found) {
        if (current !== generation) return;
        var first = null;
        found.forEach(function (r) {
          var li = resultItem(form, r, state.ranked.words);
          if (!first) first = li;
          results.appendChild(li);
        });
        state.shown += found.length;
        var left = state.ranked.docs.length - state.shown;
        more.hidden = left <= 0;
        more.textContent = (form.getAttribute('data-more') || '{n}').replace(
          '{n}', Math.min(left, PAGE).toLocaleString(lang));
        return first;
      });
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
        results.replaceChildren();
        status.textContent = '';
        more.hidden = true;
        return;
      }
      find(index, query).then(function (out) {
        if (current !== generation) return;
        state = {ranked: out.ranked, shown: 0};
        results.replaceChildren();
        var n = out.ranked.docs.length;
        var text = n ? formatCount(form, n) : (form.getAttribute('data-no-results') || '');
        if (n && out.ranked.complete < n && out.ranked.complete === 0)
          text += ' ' + (form.getAttribute('data-partial') || '');
        if (out.fallback)
          text = (form.getAttribute('data-fallback') || '').replace('{words}', out.fallback) + ' ' + text;
        status.textContent = text;
        if (n) return showPage();
        more.hidden = true;
      }).catch(function () {
        if (current !== generation) return;
        results.replaceChildren();
        more.hidden = true;
        status.textContent = loadFailedText(form);
      });
    }

    more.addEventListener('click', function () {
      if (!state) return;
      showPage().then(function (first) {
        var link = first && first.querySelector('a');
        if (link) link.focus();
      });
    });
    input.addEventListener('input', run);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      run();
    });
    arrowKeys(form.parentNode, input, results);
    var initial = new URLSearchParams(location.search).get('q');
    if (initial) {
      input.value = initial;
      run();
    }
  }

  // The header's form: the best results in a list under the box; arrow keys go into the list
  // and through it, Escape closes it, Enter in the box opens the search page.
  function setUpDropdown(form, input) {
    var list = document.getElementById(form.getAttribute('data-dropdown'));
    if (!list) return;
    var index = indexOf(form);
    var generation = 0;

    function close() {
      list.hidden = true;
    }
    function run() {
      var query = input.value;
      var current = ++generation;
      if (!tokenize(query).length) {
        list.replaceChildren();
        close();
        return;
      }
      find(index, query).then(function (out) {
        if (current !== generation) return null;
        return index.documents(out.ranked.docs.slice(0, DROPDOWN)).then(function (found) {
          if (current !== generation) return;
          var items = found.map(function (r) { return resultItem(form, r, out.ranked.words, true); });
          var all = document.createElement('li');
          all.className = 'all-results';
          var a = document.createElement('a');
          a.href = form.getAttribute('action') + '?q=' + encodeURIComponent(query);
          a.textContent = found.length ? formatCount(form, out.ranked.docs.length) :
            (form.getAttribute('data-no-results') || '');
          all.appendChild(a);
          items.push(all);
          list.replaceChildren.apply(list, items);
          list.hidden = false;
        });
      }).catch(function () {
        if (current !== generation) return;
        list.replaceChildren();
        close();
      });
    }
    input.addEventListener('input', run);
    arrowKeys(form, input, list);
    form.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape' || list.hidden) return;
      close();
      input.focus();
    });
    form.addEventListener('focusout', function (event) {
      if (!form.contains(event.relatedTarget)) close();
    });
    input.addEventListener('focus', function () {
      if (list.childNodes.length) list.hidden = false;
    });
  }

  function setUp(form) {
    var input = form.querySelector('input[name="q"]');
    if (!input || !form.hasAttribute('data-search')) return;
    input.addEventListener('focus', function () {
      indexOf(form).meta().catch(function () {});
    });
    if (form.hasAttribute('data-results')) setUpResults(form, input);
    else if (form.hasAttribute('data-dropdown')) setUpDropdown(form, input);
  }

  // '/' focuses the search box (the page's own, else the header's).
  document.addEventListener('keydown', function (event) {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var input = document.querySelector('main form.search input[name="q"]') ||
      document.querySelector('form.search input[name="q"]');
    if (!input) return;
    event.preventDefault();
    input.focus();
    input.select();
  });

  // The API the tests and benchmarks use: query(text, {limit, offset, index}) -> Promise of
  // {total, complete, fallback, words, results: [{id, url, title, code, domain, snippet,
  // score}]}; `index` is the index folder's URL (default: the page's).
  function query(text, options) {
    options = options || {};
    var form = document.querySelector('form.search');
    var index = options.index ? new Index(new URL(options.index, location.href).href) :
      (form ? indexOf(form) : new Index(new URL('search/', location.href).href));
    return find(index, text, {complete: options.complete}).then(function (out) {
      var offset = options.offset || 0;
      var docs = out.ranked.docs.slice(offset, offset + (options.limit || PAGE));
      return index.documents(docs).then(function (found) {
        found.forEach(function (r) { r.score = out.ranked.scores.get(r.doc); });
        return {total: out.ranked.docs.length, complete: out.ranked.complete,
          fallback: out.fallback, words: out.ranked.words, results: found};
      });
    });
  }

  window.kbcSearch = {tokenize: tokenize, query: query};

  function start() {
    var forms = document.querySelectorAll('form.search');
    for (var i = 0; i < forms.length; i++) setUp(forms[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
