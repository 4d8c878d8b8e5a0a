// A button with data-confirm asks first (Ban: a slip of the thumb must not close someone's
// account). A file, not an inline script: the Content-Security-Policy (config/settings/security.py) runs
// only the service's own script files.
"use strict";
document.querySelectorAll("button[data-confirm]").forEach(function (button) {
  button.addEventListener("click", function (event) {
    if (!window.confirm(button.dataset.confirm)) event.preventDefault();
  });
});
