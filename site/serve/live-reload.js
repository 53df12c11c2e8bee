// kbc serve: added to every page the development server serves, never to a built site.
// Waits for the next build (long poll on /__kbc/wait), reloads the page when a new site has been
// built, and lists the errors of a failed build in an overlay while the last good site stays.
(function () {
  'use strict';
  var script = document.currentScript;
  var server = script.dataset.server;
  var siteGeneration = Number(script.dataset.siteGeneration);
  var since = Number(script.dataset.generation);
  var overlay = null;
  var dismissed = -1;  // the build whose errors the reader dismissed

  function hide() {
    if (overlay) overlay.remove();
    overlay = null;
  }

  function element(tag, style, text) {
    var node = document.createElement(tag);
    node.style.cssText = style;
    if (text) node.textContent = text;  // text, never HTML: messages quote the entries
    return node;
  }

  function headline(status) {
    var count = status.failure ? 'the build failed'
                               : status.errors + (status.errors === 1 ? ' error' : ' errors');
    return 'kbc serve: ' + count + (status.site_ok ? '; showing the last good site'
                                                   : '; the entries with errors are left out');
  }

  function show(status) {
    hide();
    if (dismissed === status.generation) return;
    // Every colour is set here, light in both schemes: the page's own styles (a dark <pre>,
    // say) must not make the overlay unreadable.
    overlay = element('div', 'position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;' +
                      'z-index:2147483647;color-scheme:light;background:#fff5f5;color:#1a1a1a;' +
                      'border-top:4px solid #c00;padding:1em 1.25em;font:14px/1.45 sans-serif;' +
                      'text-align:left;box-shadow:0 -2px 12px rgba(0,0,0,.25)');
    overlay.id = 'kbc-serve-overlay';
    overlay.setAttribute('role', 'alert');
    overlay.setAttribute('lang', 'en');
    var title = element('strong', 'display:block;margin-right:6em;color:#a00', headline(status));
    var close = element('button', 'position:absolute;top:.75em;right:1em;font:inherit;' +
                        'padding:.2em .8em;cursor:pointer;color:#1a1a1a;background:#fff;' +
                        'border:1px solid #767676;border-radius:4px', 'Dismiss');
    close.type = 'button';
    close.addEventListener('click', function () {
      dismissed = status.generation;
      hide();
    });
    var lines = status.failure ? [status.failure] : [];
    status.diagnostics.forEach(function (d) {
      if (d.severity === 'error') lines.push(d.text);
    });
    var list = element('pre', 'margin:.75em 0 0;padding:.5em .75em;white-space:pre-wrap;' +
                       'overflow-wrap:break-word;font:13px/1.4 ui-monospace,monospace;' +
                       'color:#1a1a1a;background:#fff;border:1px solid #e3b5b5;' +
                       'border-radius:4px', lines.join('\n'));
    overlay.append(close, title, list);
    document.body.append(overlay);
  }

  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && overlay) overlay.querySelector('button').click();
  });

  function update(status) {
    if (status.server !== server || status.site_generation !== siteGeneration) {
      location.reload();
      return false;
    }
    since = status.generation;
    if (status.ok) hide(); else show(status);
    return true;
  }

  // The first request answers at once, so a page opened after a failed build shows its errors.
  function poll(url, delay) {
    setTimeout(function () {
      fetch(url, {cache: 'no-store'})
          .then(function (response) {
            if (!response.ok) throw new Error(response.status);
            return response.json();
          })
          .then(function (status) {
            if (update(status)) poll('/__kbc/wait?since=' + since, 0);
          })
          .catch(function () {  // the server stopped or restarts: try again, gently
            poll('/__kbc/status', 1000);
          });
    }, delay);
  }
  poll('/__kbc/status', 0);
})();
