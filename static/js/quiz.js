// Keyboard shortcuts and focus handling for the quiz page. Everything here is an
// enhancement: without JavaScript the same forms and links work as plain HTML.
(function () {
  "use strict";

  function isTyping(target) {
    if (!target || !target.closest) return false;
    if (target.isContentEditable) return true;
    const field = target.closest("textarea, select, input:not([type=radio]):not([type=checkbox])");
    return field !== null;
  }

  function isControl(target) {
    return target && target.closest && target.closest("button, a[href], summary, input, select, textarea") !== null;
  }

  // In sight when most of it is: a button cut by the fold by a pixel or two is seen, and means to be pressed.
  function inView(element) {
    if (!element) return true;
    const box = element.getBoundingClientRect();
    const height = window.innerHeight || document.documentElement.clientHeight;
    return Math.min(box.bottom, height) - Math.max(box.top, 0) >= box.height / 2;
  }

  function stage() {
    return document.getElementById("stage");
  }

  function submit(form, submitter) {
    if (!form) return;
    if (form.requestSubmit) form.requestSubmit(submitter || undefined);
    else form.submit();
  }

  // A key pressed the moment the feedback arrives can beat HTMX to the new "Next" link: click() on a
  // link HTMX has not processed yet loads a whole page. Asking HTMX directly swaps the stage either way.
  function follow(link) {
    const url = link.getAttribute("data-hx-get");
    if (window.htmx && url) {
      window.htmx.ajax("GET", url, {
        source: link,
        target: link.getAttribute("data-hx-target") || "#stage",
        swap: link.getAttribute("data-hx-swap") || "outerHTML",
      });
    } else {
      link.click();
    }
  }

  // What describes the shortcuts is shown only where they work, and the answer box is described by its keys
  // only then: a hidden element named in aria-describedby is still read out.
  // A phone's or tablet's on-screen keyboard: its Enter key is how a new line is typed, and there are no number
  // keys or Space bar to speak of, so neither the Enter shortcut nor the list of shortcuts applies.
  const touchOnly = window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;

  function showShortcutHelp(root) {
    if (touchOnly) return;
    root.querySelectorAll("[data-needs-js][hidden]").forEach(function (element) {
      element.hidden = false;
    });
    const box = root.querySelector("[data-answer-box]");
    const keys = root.querySelector("#answer-keys");
    const described = box ? (box.getAttribute("aria-describedby") || "").split(" ") : [];
    if (box && keys && described.indexOf("answer-keys") === -1) {
      box.setAttribute("aria-describedby", described.concat("answer-keys").join(" ").trim());
    }
  }
  // An answer typed but not yet sent survives a reload, Back, or a link followed by mistake: this tab keeps it
  // (sessionStorage) under the question's address until the question has its feedback. The browser would not:
  // the box is autocomplete="off" and quiz pages are no-store. A report on the card ([data-draft] too) is kept
  // the same way under the report's address until it is sent.
  const DRAFT = "quiz-draft:";

  function draftKey(box) {
    return box.form ? DRAFT + box.form.getAttribute("action") : null;
  }

  function forgetDraft(path) {
    try {
      window.sessionStorage.removeItem(DRAFT + path);
    } catch (error) {
      // Nothing was kept.
    }
  }

  // The answer was taken: its feedback is what a reload shows now. Not when the answer went to the sign-in page
  // instead (HX-Redirect, a 200 too: signed out in another tab): the student comes back to this question, box and all.
  document.addEventListener("htmx:afterRequest", function (event) {
    const detail = event.detail || {};
    const config = detail.requestConfig;
    const xhr = detail.xhr;
    if (!config || config.verb !== "post" || !xhr || xhr.status !== 200) return;
    if (xhr.getResponseHeader("HX-Redirect")) return;
    forgetDraft(config.path);
  });

  function keepDrafts(root) {
    const here = stage();
    if (here && here.dataset.state === "feedback") forgetDraft(window.location.pathname);
    try {
      root.querySelectorAll("[data-draft]").forEach(function (box) {
        const key = draftKey(box);
        const draft = key ? window.sessionStorage.getItem(key) : null;
        if (!draft || box.value) return;
        box.value = draft;
        // The report's box sits in a closed "Report a problem" disclosure: open it, so the words are seen.
        const folded = box.closest("details");
        if (folded) folded.open = true;
      });
    } catch (error) {
      // Storage refused (a private window, a full quota): the answer box works as before.
    }
  }

  // Characters counted as the server counts them (code points, a new line one), once they near the limit: a
  // pasted essay learnt of the limit only when sent.
  const number = new Intl.NumberFormat("en");
  function countCharacters(box) {
    const note = document.getElementById("answer-count");
    const limit = Number(box && box.dataset.limit);
    if (!note || !limit) return;
    const count = Array.from(box.value.trim()).length;
    note.hidden = count < limit * 0.8;
    const over = count > limit;
    note.classList.toggle("answer-count-over", over);
    note.textContent = over
      ? number.format(count) + " characters: " + number.format(count - limit) + " over the limit of " +
        number.format(limit) + "."
      : number.format(count) + " of " + number.format(limit) + " characters.";
    const status = document.getElementById("answer-count-status");
    const state = over ? "over" : note.hidden ? "" : "near";
    if (status && status.dataset.state !== state) {
      status.dataset.state = state;
      status.textContent = state === "over" ? "Your answer is over the limit of " + number.format(limit) +
        " characters." : state === "near" ? "Your answer nears the limit of " + number.format(limit) +
        " characters." : "";
    }
  }

  document.addEventListener("input", function (event) {
    const box = event.target;
    if (box.matches && box.matches("[data-limit]")) countCharacters(box);
    if (!box.matches || !box.matches("[data-draft]")) return;
    const key = draftKey(box);
    try {
      if (key && box.value.trim()) window.sessionStorage.setItem(key, box.value);
      else if (key) window.sessionStorage.removeItem(key);
    } catch (error) {
      // As above: no draft kept.
    }
  });

  function onPage() {
    showShortcutHelp(document);
    keepDrafts(document);
    countCharacters(document.querySelector("[data-limit]"));
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }

  // An error sits above the options or the answer box, which take the focus and so are scrolled into view;
  // options taller than the screen are scrolled to their middle, which can leave the error above it.
  // The whole error, not half of it as inView allows, and clear of the screen's edge: scrollIntoView left it a
  // fraction of a pixel past the bottom of a phone on its side, its last line cut.
  function keepErrorInSight(error) {
    const box = error.getBoundingClientRect();
    const height = window.innerHeight || document.documentElement.clientHeight;
    if (box.top < 0) window.scrollBy(0, box.top - 8);
    else if (box.bottom > height) window.scrollBy(0, Math.min(box.bottom - height + 8, box.top));
  }

  // The options take the focus on a page load, and the browser scrolls them into view: on a short screen the
  // question above them went out of sight. The page keeps the focus where it is and shows the question, unless
  // it comes back with an error about the answer: the student has read the question, and must see the error.
  function keepQuestionInSight() {
    const error = document.querySelector("#stage .field-error");
    if (error) {
      keepErrorInSight(error);
      return;
    }
    const heading = document.querySelector("#stage .question-heading");
    if (heading && heading.getBoundingClientRect().top < 0) heading.scrollIntoView({ block: "start" });
  }
  window.addEventListener("load", function () { window.requestAnimationFrame(keepQuestionInSight); });

  const ENTER_AFTER_MS = 600;
  let feedbackAt = 0; // when the feedback was last shown (swapped in, or loaded)
  document.addEventListener("DOMContentLoaded", function () { feedbackAt = Date.now(); });

  document.addEventListener("keydown", function (event) {
    // Any other key: the student went on with the question. Not Enter on "Show answer" itself: that confirms.
    if (event.key !== " " && !(event.target.matches && event.target.matches("[data-reveal]"))) cancelConfirm();
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const root = stage();
    if (!root) return;
    const form = root.querySelector("form.question-form");

    // Enter in the answer box submits; Shift+Enter keeps its new line.
    if (event.key === "Enter" && event.target.matches && event.target.matches("[data-answer-box]")) {
      if (!event.shiftKey && !event.isComposing && !touchOnly) {
        event.preventDefault();
        submit(form, form && form.querySelector("[data-submit]"));
      }
      return;
    }
    if (isTyping(event.target)) return;

    // Only while the quiz, not the site's header or footer, has the focus.
    const inQuiz = event.target === document.body || root.contains(event.target);
    if (form && inQuiz && /^[1-9]$/.test(event.key)) {
      const option = form.querySelectorAll("input[name=option]")[Number(event.key) - 1];
      if (option) {
        event.preventDefault();
        option.checked = true;
        option.focus();
      }
      return;
    }
    if (event.key === "Enter" && form) {
      const onOption = event.target.matches && event.target.matches("input[name=option]");
      if (onOption || !isControl(event.target)) {
        event.preventDefault();
        submit(form, form.querySelector("[data-submit]"));
      }
      return;
    }
    // Enter on the feedback goes on, as Space does, with the key the answer was sent with. Not a held key, nor a
    // second press just after the one that sent the answer: the feedback would flash by unread.
    if (event.key === "Enter" && inQuiz && !isControl(event.target)) {
      const next = root.querySelector("[data-next]");
      if (next && !event.repeat && Date.now() - feedbackAt >= ENTER_AFTER_MS) {
        event.preventDefault();
        follow(next);
      }
      return;
    }
    // Shift+Space is the browser's "scroll up", never a shortcut.
    if (event.key === " " && !event.shiftKey && !isControl(event.target)) {
      const next = root.querySelector("[data-next]");
      const reveal = form && form.querySelector("[data-reveal]");
      // While "Show answer" or "Next" is out of sight, Space scrolls as in any page: a student reading a long
      // question would otherwise lose it (a shown answer scores 0, and cannot be undone), and one reading the
      // feedback would skip the model answer and its explanation.
      if (!inView(next || reveal)) return;
      if (next) {
        event.preventDefault();
        follow(next);
      } else if (reveal) {
        event.preventDefault();
        // A shown answer scores 0 and cannot be taken back, and Space is also how many people scroll: the
        // first press only asks, the second within a few seconds shows the answer.
        if (!confirming(form)) {
          askToConfirm(form, "Press Space again to show the answer (a shown answer scores 0).");
          return;
        }
        // A click, not requestSubmit(reveal): htmx 2 sends a submit button's name and value only for the
        // button it saw clicked or focused, so the POST would lack reveal=1 and be refused as unanswered.
        // Still confirming while it runs, so the click is not asked about again (below).
        reveal.click();
        cancelConfirm();
      }
    }
  });

  const CONFIRM_MS = 4000;
  let armed = null; // { form, until, timer }

  function confirming(form) {
    return armed !== null && armed.form === form && Date.now() < armed.until;
  }

  function askToConfirm(form, message, ms) {
    const wait = ms || CONFIRM_MS;
    cancelConfirm();
    const note = form.querySelector("[data-reveal-confirm]");
    if (note) note.textContent = message;
    armed = { form: form, until: Date.now() + wait, timer: window.setTimeout(cancelConfirm, wait) };
  }

  function cancelConfirm() {
    if (armed === null) return;
    window.clearTimeout(armed.timer);
    const note = armed.form.querySelector("[data-reveal-confirm]");
    if (note) note.textContent = "";
    armed = null;
  }

  // "Show answer" with an option chosen was most likely meant for "Check answer", just above it on a phone: the
  // choice would be dropped for a 0 that cannot be undone. The first click only asks; a second shows the answer.
  document.addEventListener("click", function (event) {
    const reveal = event.target.closest && event.target.closest("#stage [data-reveal]");
    const form = reveal && reveal.form;
    if (!form || !form.querySelector("input[name=option]:checked")) return;
    // The server asks too (for a page without JavaScript): a press confirmed here, or on the server's own
    // question, says so, and is not asked about a second time.
    if (form.querySelector("input[name=reveal_confirmed]")) return;
    if (confirming(form)) {
      const confirmed = document.createElement("input");
      confirmed.type = "hidden";
      confirmed.name = "reveal_confirmed";
      confirmed.value = "1";
      form.appendChild(confirmed);
      return;
    }
    event.preventDefault();
    askToConfirm(form, "You chose an option: “Check answer” checks it. “Show answer” again shows the answer " +
      "without checking your choice (a shown answer scores 0).", 10000);  // a longer note, read on a phone
  });

  // A request that fails (the network is down, or the server answers with an error) swaps nothing: the student
  // pressed "Check answer" or "Next question" and nothing happened. Say so under the buttons, where they are
  // looking; what was typed stays in the box, and sending it again is safe (a repeat returns the stored answer).
  function requestFailed(event, message) {
    const root = stage();
    const detail = event.detail || {};
    const elt = detail.elt;
    if (!root || !((detail.target && detail.target.id === "stage") || (elt && root.contains(elt)))) return;
    let note = root.querySelector("[data-request-error]");
    if (!note) {
      note = document.createElement("p");
      note.className = "form-errors request-error";
      note.setAttribute("role", "alert");
      note.setAttribute("data-request-error", "");
      const actions = root.querySelector(".actions");
      if (actions) actions.insertAdjacentElement("afterend", note);
      else root.appendChild(note);
    }
    note.textContent = message;
  }
  document.addEventListener("htmx:sendError", function (event) {
    requestFailed(event, "The server could not be reached. Check your connection and try again.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    const status = event.detail && event.detail.xhr ? event.detail.xhr.status : "";
    // A 404: the quiz is gone from under the page (its deck made a draft, say); trying again cannot help.
    const message = status === 404
      ? "This quiz is no longer available. Reload the page to see why."
      : "The server could not answer (error " + status + "). Please try again in a moment.";
    requestFailed(event, message);
  });
  document.addEventListener("htmx:beforeRequest", function () {
    const note = document.querySelector("#stage [data-request-error]");
    if (note) note.remove();
  });

  // After HTMX swaps in a new question or its feedback, swap-focus.js moves focus to its heading
  // ([data-focus]) so screen readers announce it; a free-recall question goes on to its answer box. A question
  // sent back with an error gives [data-focus] to the options or the box instead, which the error describes.
  document.addEventListener("htmx:afterSettle", function (event) {
    const target = event.detail && event.detail.elt;
    const root = stage();
    if (!root || !target || !(target === root || root.contains(target) || target.id === "stage")) return;
    showShortcutHelp(root);
    keepDrafts(root);
    countCharacters(root.querySelector("[data-limit]"));
    if (root.dataset.state === "feedback") feedbackAt = Date.now();
    const box = root.querySelector("[data-answer-box]");
    if (box && root.dataset.state === "question") box.focus();
    const error = root.querySelector(".field-error");
    if (!error) return;
    // htmx hands the focus back to the new copy of what had it: Enter pressed on the question's heading (where
    // "Next question" left the focus) would keep it there, away from the options the error is about.
    const about = root.dataset.state === "question" ? root.querySelector("[data-focus]") : null;
    if (about && !about.contains(document.activeElement)) about.focus({ preventScroll: true });
    keepErrorInSight(error);
  });
})();
