// memdir panel: sends a person's changes to the JSON API (with the page's CSRF token) and shows the answer.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const message = document.getElementById("message");

  function show(text, isError) {
    message.textContent = text;
    message.className = isError ? "message error" : "message";
    message.hidden = !text;
  }

  // A change refused because the memory changed since this page was loaded (409 with "current"): under the
  // error, the version there is now and a link to it (in a new tab from a form, whose typed text stays).
  function offerCurrent(box, current, newTab) {
    if (!current) { return; }
    const now = document.createElement("span");
    now.className = "current";
    now.dataset.current = current.digest || "";
    const memory = current.memory;
    now.textContent = "\n" + (memory ? "Now: " + memory.description + (memory.pinned ? " (pinned)" : "")
                                        + (memory.disabled ? " (muted)" : "") + " " : "Now: deleted. ");
    const link = document.createElement("a");
    link.href = current.url;
    link.textContent = memory ? "Show the current version" : "Show its history";
    if (newTab) { link.target = "_blank"; link.rel = "noopener"; }
    now.appendChild(link);
    box.appendChild(now);
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
      body: JSON.stringify(body || {}),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
    if (!response.ok) {
      const error = new Error(data.error || ("HTTP " + response.status));
      error.current = data.current;
      throw error;
    }
    return data;
  }

  function remember(data) {  // shown once after the reload
    const lines = [data.text].concat(data.warnings || []);
    sessionStorage.setItem("memdir-message", lines.filter(Boolean).join("\n"));
  }

  const kept = sessionStorage.getItem("memdir-message");
  if (kept) { show(kept, false); sessionStorage.removeItem("memdir-message"); }

  document.addEventListener("click", async function (event) {
    const button = event.target.closest("button[data-post]");
    if (!button) { return; }
    event.preventDefault();
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) { return; }
    button.disabled = true;
    try {
      const data = await post(button.dataset.post, button.dataset.body ? JSON.parse(button.dataset.body) : {});
      remember(data);
      window.location.reload();
    } catch (error) {
      show(error.message, true);
      offerCurrent(message, error.current, false);
      button.disabled = false;
    }
  });

  function initialValue(input) {  // what the form showed: a select's option selected in the page, else defaultValue
    if (input.tagName !== "SELECT") { return input.defaultValue; }
    const shown = Array.from(input.options).find(function (option) { return option.defaultSelected; });
    return shown ? shown.value : (input.options[0] || {}).value;
  }

  document.querySelectorAll("form[data-json]").forEach(function (form) {
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      const edit = {};
      for (const input of form.querySelectorAll("input[name], select[name], textarea[name]")) {
        const key = input.name, value = input.value;
        // Only what the person changed is sent (and the digest the form was read at): a field left as
        // shown is kept by the write, so a rename takes its new name's title unless the person typed one,
        // and a form never clears what it did not show ("" clears a field the person emptied).
        if (key === "expect_digest" ? value === "" : value === initialValue(input)) { continue; }
        edit[key] = key === "importance" && value !== "" ? Number(value) : value;
      }
      const errorBox = form.querySelector("[data-error]");
      errorBox.hidden = true;
      try {
        const data = form.dataset.approve
          ? await post(form.dataset.json + "/approve", {edit: edit, digest: form.dataset.digest})
          : await post(form.dataset.json, edit);
        remember(data);
        window.location.href = form.dataset.next.replace("{name}", encodeURIComponent(data.result.name));
      } catch (error) {
        errorBox.textContent = error.message;
        offerCurrent(errorBox, error.current, true);
        errorBox.hidden = false;
      }
    });
  });

  function filterRows(table) {
    const text = (document.querySelector('[data-filter="#' + table.id + '"]') || {}).value || "";
    const state = (document.querySelector('[data-filter-state="#' + table.id + '"]') || {}).value || "";
    const needle = text.trim().toLowerCase();
    table.querySelectorAll("tbody tr[data-name]").forEach(function (row) {
      // The row shows a memory's title (größe-grenze, 배포-절차); its name (grosse-grenze, m-…) is what the CLI takes.
      const haystack = (row.dataset.name + " " + row.textContent).toLowerCase();
      const hit = (!needle || haystack.includes(needle)) && (!state || row.dataset.state === state);
      row.hidden = !hit;
    });
  }
  document.querySelectorAll("[data-filter], [data-filter-state]").forEach(function (input) {
    const table = document.querySelector(input.dataset.filter || input.dataset.filterState);
    input.addEventListener("input", function () { filterRows(table); });
  });
})();
