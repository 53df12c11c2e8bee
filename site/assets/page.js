// Small enhancements of the site's pages. Plain script, no dependencies; the pages work without
// it. A "Copy" button on every code block of the page's main content (its labels are the UI
// strings copy and copied, from <main>'s data- attributes).
(function () {
  'use strict';

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Pages served over plain HTTP have no clipboard API: copy the selection instead.
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand && document.execCommand('copy');
    area.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error('copy'));
  }

  function addCopyButtons() {
    var main = document.querySelector('main');
    if (!main || !main.hasAttribute('data-copy')) return;
    var label = main.getAttribute('data-copy');
    var done = main.getAttribute('data-copied') || label;
    main.querySelectorAll('pre').forEach(function (pre) {
      var wrap = document.createElement('div');
      wrap.className = 'code-block';
      pre.parentNode.insertBefore(wrap, pre);
      wrap.appendChild(pre);
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = label;
      button.addEventListener('click', function () {
        copyText(pre.textContent).then(function () {
          button.textContent = done;
          setTimeout(function () { button.textContent = label; }, 2000);
        }, function () {});
      });
      wrap.appendChild(button);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', addCopyButtons);
  else addCopyButtons();
})();
