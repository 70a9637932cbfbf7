// The admin page "Balance": polls a simulation's status once a second, moves its progress bar, and reloads
// the page when the simulation has ended (the result is drawn by the server). A static file: no inline script.
(function () {
  "use strict";
  const box = document.getElementById("balance-progress");
  if (!box) {
    return;
  }
  const bar = box.querySelector("progress");
  const text = box.querySelector(".balance-progress-text");
  const label = box.dataset.label; // "{done} of {total} runs", translated by the server

  function show(status) {
    bar.max = Math.max(1, status.total);
    bar.value = status.done;
    text.textContent = label.replace("{done}", status.done).replace("{total}", status.total);
    box.dataset.status = status.status;
  }

  async function poll() {
    try {
      const response = await fetch(box.dataset.statusUrl, {
        credentials: "same-origin", headers: {Accept: "application/json"},
      });
      if (response.ok) {
        const status = await response.json();
        show(status);
        if (status.status === "done" || status.status === "failed") {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // the next poll tries again (a restart of the server, a dropped connection)
    }
    window.setTimeout(poll, 1000);
  }

  window.setTimeout(poll, 1000);
}());
