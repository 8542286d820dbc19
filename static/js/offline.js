// A round survives a dead connection. What is typed into a round form (one marked
// data-draft: the scorer's next round, a round being edited, a seat's hand in table
// mode) is kept in this phone's localStorage as it is typed, per session (or table
// seat) and round; a reload, a crashed tab or a lost connection brings it back.
//
// Save without a network keeps the round here, its submission token (or the version
// an edit started from) with it, says so beside the button, and sends it again by
// itself when the connection returns (the "online" event, and a timer while the
// server cannot be reached). The server saves one token once and an edit over its
// version once, so a round sent twice is stored once; if another phone saved that
// round meanwhile, its answer is the conflict view the form shows for any clash.
//
// The service worker (/sw.js, templates/pwa/sw.js) is registered here too; on the
// offline page it shows, this file says what waits and reloads once back online.
//
// Phones are passed round the table: signing out (the form marked data-sign-out)
// takes this app's drafts (and htmx's copies of pages) with it, after asking first if
// a round is still waiting to be sent. A sign-in that simply ran out does not pass
// through that form, so each draft also names whose it is (the page's data-owner):
// another account signed in on this phone is never shown it, nor sends it; its owner
// gets it back on signing in.
(function () {
  "use strict";

  var PREFIX = "scorekeeper:draft:";
  var KEEP_MS = 7 * 24 * 60 * 60 * 1000; // a draft untouched for a week is forgotten
  var RETRY_MS = 10000; // while rounds wait, the server is tried this often
  // Not part of what was typed: the page's own tokens, and the seat's edit count,
  // which must stay the server's (static/js/app.js counts edits from it).
  var SKIP = { csrfmiddlewaretoken: true, key: true, edit: true };
  var QUEUED = "Saved on this phone \u2014 will send when back online.";
  var SENT = "scorekeeper:sent"; // sessionStorage: "Round N sent.", said after a page load
  var RESTORED = "What you typed on this phone before is back.";

  // Whose drafts this page may show and send: the signed-in account ("u" and its id),
  // "" where nobody is signed in (a seat phone's link), null where the page does not
  // say (the offline page: it only counts what waits).
  var owner = document.body ? document.body.getAttribute("data-owner") : null;

  var store = (function () {
    try {
      window.localStorage.getItem(PREFIX);
      return window.localStorage;
    } catch (error) {
      return null; // storage refused (private mode, a policy): the page works as before
    }
  })();

  function read(key) {
    try {
      return JSON.parse(store.getItem(key));
    } catch (error) {
      return null;
    }
  }

  function write(key, draft) {
    if (owner !== null) draft.owner = owner;
    try {
      store.setItem(key, JSON.stringify(draft));
    } catch (error) {
      // Storage full or refused: the form itself still holds what was typed.
    }
  }

  function keys() {
    var found = [];
    for (var i = 0; store && i < store.length; i++) {
      var key = store.key(i);
      if (key && key.indexOf(PREFIX) === 0) found.push(key);
    }
    return found;
  }

  // This page's user's: a draft from before drafts named their owner counts as anyone's.
  function ours(draft) {
    return Boolean(draft) && (owner === null || draft.owner === undefined || draft.owner === owner);
  }

  // How many of this user's rounds wait on this phone to be sent.
  function waitingCount() {
    return keys().filter(function (key) {
      var draft = read(key);
      return ours(draft) && draft.queued;
    }).length;
  }

  // --- A form's draft ---------------------------------------------------------------

  // The form's round: a new round's number travels in its hidden "number" field (the
  // page moves it on when another phone saves first); an edit names its round.
  function numberOf(form) {
    var number = form.querySelector('input[name="number"]');
    return number ? number.value : form.getAttribute("data-draft-number") || "";
  }

  // A signed-in account's drafts are kept under keys of its own, so another account
  // typing into the same round on this phone never writes over them. (``legacy``: the
  // key a draft had before drafts named their account.)
  function scopeOf(form, legacy) {
    var scope = PREFIX + form.getAttribute("data-draft");
    return owner && !legacy ? scope + "@" + owner : scope;
  }

  function keyOf(form, legacy) {
    var scope = scopeOf(form, legacy);
    return form.querySelector('input[name="number"]') ? scope + ":" + numberOf(form) : scope;
  }

  // A draft kept before drafts named their account, moved under this account's key.
  function adopted(form) {
    var old = keyOf(form, true);
    var draft = old !== keyOf(form) ? read(old) : null;
    if (!ours(draft)) return null;
    store.removeItem(old);
    write(keyOf(form), draft);
    return draft;
  }

  // What the form holds now, or (``served``) what the page was served with: each
  // field's default, whatever was typed or tapped since (static/js/app.js's fieldState,
  // which says the same for its preview of what changed before the page listened).
  function valuesOf(form, served) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || SKIP[field.name] || field.disabled) return;
      if (field.type === "submit" || field.type === "button" || field.type === "file") return;
      var state = window.scorekeeper.fieldState(field, served);
      if (field.type !== "radio") values[field.name] = state;
      else if (state) values[field.name] = field.value;
    });
    return values;
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // Puts the values back; returns the fields whose value changed.
  function apply(form, values) {
    var changed = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || SKIP[field.name] || !(field.name in values)) return;
      var value = values[field.name];
      if (field.type === "radio") {
        var on = field.value === value;
        if (field.checked !== on) {
          field.checked = on;
          if (on) changed.push(field);
        }
      } else if (field.type === "checkbox") {
        if (field.checked !== Boolean(value)) {
          field.checked = Boolean(value);
          changed.push(field);
        }
      } else if (field.type !== "submit" && field.type !== "button" && field.value !== value) {
        field.value = value;
        changed.push(field);
      }
    });
    return changed;
  }

  // Kept as typed; a form nobody has typed into leaves nothing behind. (A seat's hand at
  // a table link gone is only shown, its fields disabled: its draft stays as typed.)
  function keep(form) {
    if (!store || !form.isConnected || form.hasAttribute("data-closed")) return;
    var key = keyOf(form);
    var values = valuesOf(form);
    var before = read(key);
    if (!before && form._draftInitial && same(values, form._draftInitial)) return;
    if (form._draftKey && form._draftKey !== key) store.removeItem(form._draftKey); // renumbered
    form._draftKey = key;
    // Still the hand handed in while nothing in it changed (a swap that rewrites it as is).
    var handed = ours(before) && Boolean(before.handed) && same(values, before.values);
    write(key, { values: values, at: Date.now(), queued: ours(before) && Boolean(before.queued), handed: handed });
  }

  // A seat's hand handed in stays kept on the phone, marked "handed", until its round
  // is saved (earlierQueued drops it then): at a table link gone since, the server
  // shows nothing of the seat's hand (the seat may be someone else's by then), so this
  // is what brings it back, to be read out, and what says it had been handed in.
  function sayHanded() {
    var fate = document.querySelector("#seat-status [data-hand-fate]");
    var forms = document.querySelectorAll("form[data-seat-form][data-closed][data-draft]");
    var handed = Array.prototype.some.call(forms, function (form) {
      var draft = store && read(keyOf(form));
      return ours(draft) && Boolean(draft.handed);
    });
    if (!fate || !handed) return;
    fate.textContent = fate.getAttribute("data-handed");
    fate.hidden = false;
  }

  // A new-round (or seat) form meets its scope's drafts: one for a round saved since
  // is dropped, unless it waits to be sent: that one is put back and sent, so the
  // server says whether it was saved already (its token) or clashed (the conflict view).
  function earlierQueued(form) {
    if (!form.querySelector('input[name="number"]')) return null;
    var current = parseInt(numberOf(form), 10);
    var waiting = null;
    keys().forEach(function (key) {
      if (key.indexOf(scopeOf(form) + ":") !== 0) return;
      var number = parseInt(key.slice(scopeOf(form).length + 1), 10);
      if (!(number < current) || sending[key]) return;
      var draft = read(key);
      if (draft && !ours(draft)) return; // another account's: kept for them
      if (draft && draft.queued && !waiting) waiting = draft;
      else store.removeItem(key);
    });
    return waiting;
  }

  // Drafts on their way to the server: the form an answer swaps in leaves them be.
  var sending = Object.create(null);

  // A form changed before this file was set up (a tap while a slow phone was still
  // loading the page's scripts, the browser restoring a form on Back): kept as it
  // stands, as if typed now. Its changed fields win over a draft put back at the same
  // time, being the newer; they are the ones that differ from the page as served.
  function setUp(form) {
    if (form._draftReady || !store) return;
    form._draftReady = true;
    form._draftInitial = valuesOf(form, true);
    var now = valuesOf(form);
    var early = Object.keys(now).concat(Object.keys(form._draftInitial)).filter(function (name) {
      return now[name] !== form._draftInitial[name];
    });
    restore(form, early);
    if (early.length) keep(form);
  }

  // This form's draft, if this phone keeps one, put back (all but the fields ``early``
  // changed, which keep what they hold).
  function restore(form, early) {
    var draft = earlierQueued(form) || read(keyOf(form)) || adopted(form);
    if (!ours(draft) || !draft.values) return;
    var closed = form.hasAttribute("data-closed");
    // Handed in: the server holds it (the scorer may have corrected it since), its page
    // is right while the link works.
    if (draft.handed && !closed) return;
    var values = {};
    Object.keys(draft.values).forEach(function (name) {
      if (early.indexOf(name) < 0) values[name] = draft.values[name];
    });
    var changed = apply(form, values);
    form._draftKey = keyOf(form);
    if (changed.length) {
      // The same events typing fires: the picker recounts, the preview asks the server.
      changed.forEach(function (field) {
        field.dispatchEvent(new Event("input", { bubbles: true }));
      });
      // The card picker (static/js/app.js) aims itself again at what is left to enter.
      form.dispatchEvent(new CustomEvent("draft:restored", { bubbles: true }));
      // (At a link gone, the one message there says all: the hand is simply back.)
      if (!draft.queued && !closed) say(form, RESTORED, "data-draft-restored", true);
    }
    sayHanded();
    if (draft.queued && form.hasAttribute("data-closed")) {
      unqueue(form); // its table link is gone: shown, never to be sent
    } else if (draft.queued) {
      queue(form);
      if (navigator.onLine) window.setTimeout(sendWaiting, 500);
    }
  }

  // A seat's hand closed in place (static/js/app.js: its status says the link is gone,
  // the server knowing no seat of this phone's there), as restore() does at load: shown,
  // never to be sent, and said to have been handed in if it was.
  document.addEventListener("seat:closed", function (event) {
    unqueue(event.target);
    sayHanded();
  });

  // --- Messages beside the form ---------------------------------------------------

  function saveButton(form) {
    var buttons = form.querySelectorAll('[data-save], button[type="submit"]:not([name])');
    return buttons[buttons.length - 1] || null;
  }

  // A message this file says, found again by its marker attribute.
  function message(text, marker, kind, role) {
    var note = document.createElement("p");
    note.className = "message " + kind;
    note.setAttribute("role", role);
    note.setAttribute(marker, "");
    note.textContent = text;
    return note;
  }

  function say(form, text, marker, above) {
    var old = form.parentNode && form.parentNode.querySelector("[" + marker + "]");
    if (old) old.parentNode.removeChild(old);
    var note = message(text, marker, "draft-note", "status");
    var button = saveButton(form);
    if (above || !button) form.insertAdjacentElement("beforebegin", note);
    else button.insertAdjacentElement("afterend", note);
    return note;
  }

  function unsay(form, marker) {
    var notes = form.querySelectorAll("[" + marker + "]");
    Array.prototype.forEach.call(notes, function (note) {
      note.parentNode.removeChild(note);
    });
  }

  // --- Waiting to be sent -----------------------------------------------------------

  var timer = null;

  function queue(form) {
    var values = valuesOf(form);
    write(keyOf(form), { values: values, at: Date.now(), queued: true });
    form._draftKey = keyOf(form);
    form.setAttribute("data-queued", "");
    // An earlier "not saved" from static/js/app.js no longer says what happens.
    Array.prototype.forEach.call(form.querySelectorAll("[data-outage]"), function (note) {
      note.parentNode.removeChild(note);
    });
    say(form, QUEUED, "data-queued-note", false);
    if (!timer) timer = window.setInterval(tryAgain, RETRY_MS);
  }

  function unqueue(form) {
    form.removeAttribute("data-queued");
    unsay(form, "data-queued-note");
    var draft = store && read(keyOf(form));
    if (ours(draft) && draft.queued) write(keyOf(form), { values: draft.values, at: draft.at, queued: false });
  }

  function sendWaiting() {
    var waiting = document.querySelectorAll("form[data-draft][data-queued]");
    Array.prototype.forEach.call(waiting, function (form) {
      if (form._inFlight) return;
      var button = saveButton(form);
      if (form.requestSubmit) form.requestSubmit(button || undefined);
      else if (window.htmx) window.htmx.trigger(form, "submit");
    });
    if (!waiting.length && timer) {
      window.clearInterval(timer);
      timer = null;
    }
  }

  function tryAgain() {
    if (navigator.onLine) sendWaiting();
  }

  function ownRequest(event) {
    var form = event.detail && event.detail.elt;
    return form instanceof HTMLFormElement && form.hasAttribute("data-draft") ? form : null;
  }

  // A save on its way, by its request: once the answer is swapped in, the form is out
  // of the page and htmx says so on an element still in it, with the same request.
  var sent = [];

  // The save this request was, if it was one, now over however it ended: its form is
  // no longer in flight.
  function sentBy(event) {
    var xhr = event.detail && event.detail.xhr;
    for (var i = 0; i < sent.length; i++) {
      if (sent[i].xhr !== xhr) continue;
      var save = sent.splice(i, 1)[0];
      save.form._inFlight = false;
      delete sending[save.key];
      return save;
    }
    return null;
  }

  function sentText(save) {
    var number = save.number;
    return save.form.hasAttribute("data-seat-form")
      ? "Your hand for round " + number + " was sent."
      : "Round " + number + " sent.";
  }

  // "Round N sent." is said once the answer is in the page: swapped in by htmx, or a
  // page loaded after it (an edit's answer sends the browser to the session page), so
  // it waits in sessionStorage (SENT), which a page load in this tab keeps.
  var sentNote = null; // where sessionStorage is refused

  function noteSent(text) {
    sentNote = text;
    try {
      window.sessionStorage.setItem(SENT, text);
    } catch (error) {
      // Said after a swap all the same, from sentNote.
    }
  }

  function placeSentNote() {
    var text = sentNote;
    try {
      text = window.sessionStorage.getItem(SENT) || text;
      window.sessionStorage.removeItem(SENT);
    } catch (error) {
      // sentNote alone
    }
    sentNote = null;
    var main = document.getElementById("main") || document.body;
    // Sent, but the server's own message says it was not taken (an edit of a round
    // deleted meanwhile): that message alone is right.
    if (!text || main.querySelector(".messages .message-error")) return;
    var note = message(text, "data-sent", "draft-note", "status");
    // Above the next round's form where there is one, else at the top of the page.
    var next = main.querySelector("form[data-draft]");
    if (next) next.insertAdjacentElement("beforebegin", note);
    else main.insertAdjacentElement("afterbegin", note);
  }

  if (window.htmx) {
    // Capture, so these run before static/js/app.js's own listeners for the same events.
    document.addEventListener(
      "htmx:beforeRequest",
      function (event) {
        var form = ownRequest(event);
        if (!form) return;
        keep(form);
        if (!navigator.onLine) {
          // No network at all: not even tried; kept here until it returns.
          event.preventDefault();
          queue(form);
          return;
        }
        form._inFlight = true;
        sending[keyOf(form)] = true;
        sent.push({
          xhr: event.detail.xhr,
          form: form,
          key: keyOf(form),
          number: numberOf(form),
          queued: form.hasAttribute("data-queued"),
        });
      },
      true
    );

    // No answer at all: kept here and sent again by itself (data-queued also tells
    // app.js that this failure is said here, not there).
    document.addEventListener(
      "htmx:sendError",
      function (event) {
        var save = sentBy(event);
        if (save) queue(save.form);
      },
      true
    );

    // No answer in time: the server may still be saving it, so app.js says so and a
    // tap on Save sends it again (the same token: never twice); it waits no longer.
    document.addEventListener(
      "htmx:timeout",
      function (event) {
        var save = sentBy(event);
        if (save) unqueue(save.form);
      },
      true
    );

    document.addEventListener(
      "htmx:afterRequest",
      function (event) {
        var xhr = event.detail.xhr;
        if (!xhr || !xhr.status) return; // no answer: sendError or timeout follows
        var save = sentBy(event);
        if (!save) return;
        if (xhr.status === 200 && save.form.hasAttribute("data-seat-form")) {
          // Handed in: kept, marked so (sayHanded), until the round is saved.
          var kept = store && read(save.key);
          var values = ours(kept) ? kept.values : valuesOf(save.form);
          if (store) write(save.key, { values: values, at: Date.now(), queued: false, handed: true });
          save.form.removeAttribute("data-queued");
          if (save.queued) noteSent(sentText(save));
          return;
        }
        if (xhr.status === 200) {
          // Saved: nothing left to keep for this round.
          if (store) store.removeItem(save.key);
          save.form.removeAttribute("data-queued");
          if (save.queued) noteSent(sentText(save));
          return;
        }
        // Answered but not saved: the form with its problems, or the conflict view.
        // It is no longer waiting; app.js says a refusal; what was typed stays kept.
        unqueue(save.form);
        if (xhr.status === 422) {
          // The form that comes back holds it, under its own round (below).
          if (store) store.removeItem(save.key);
          keepAnswered = save.form.getAttribute("data-draft");
        }
      },
      true
    );

    // The form a 422 brought back holds what was typed (the conflict view moves a new
    // round on to the next number): keep it under that round at once.
    var keepAnswered = null;

    window.htmx.onLoad(function (root) {
      var forms = [];
      if (root.matches && root.matches("form[data-draft]")) forms.push(root);
      if (root.querySelectorAll) forms = forms.concat(Array.prototype.slice.call(root.querySelectorAll("form[data-draft]")));
      forms.forEach(function (form) {
        if (keepAnswered && form.getAttribute("data-draft") === keepAnswered) {
          form._draftReady = true;
          form._draftInitial = null;
          keep(form);
        }
        setUp(form);
      });
      keepAnswered = forms.length ? null : keepAnswered;
      // A piece swapped inside a form (Arrange rewrites a hand) changes what is typed.
      var inside = root.closest && root.closest("form[data-draft]");
      if (inside && inside._draftReady) keep(inside);
    });

    document.addEventListener("htmx:afterSettle", placeSentNote);
  } else {
    document.addEventListener("DOMContentLoaded", function () {
      document.querySelectorAll("form[data-draft]").forEach(setUp);
    });
  }

  // Every keystroke and every card the picker types (it fires "input" too).
  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var form = event.target && event.target.form;
      if (form && form._draftReady && form.hasAttribute("data-draft")) keep(form);
    });
  });

  window.addEventListener("online", sendWaiting);
  placeSentNote(); // a page loaded after a round was sent

  // Old drafts go: a round typed a week ago and never saved is not coming back.
  keys().forEach(function (key) {
    var draft = read(key);
    if (!draft || !(Date.now() - draft.at < KEEP_MS)) store.removeItem(key);
  });

  // --- The offline page -------------------------------------------------------------

  if (document.body && document.body.hasAttribute("data-offline-page")) {
    var waiting = waitingCount();
    var line = document.querySelector("[data-drafts-waiting]");
    if (line && waiting) {
      line.textContent =
        (waiting === 1 ? "1 round waits" : waiting + " rounds wait") +
        " on this phone: it is sent once its page is open and the connection is back.";
      line.hidden = false;
    }
    // The page asked for, as soon as it can be had: when the phone says it is back
    // online (a moment later: the service worker may learn it after the page), and
    // every few seconds while the network is up but the server out of reach.
    // (Not the offline page opened at its own address: it would only show itself again.)
    var reload = function () {
      if (navigator.onLine) window.location.reload();
    };
    var asked = window.location.pathname !== document.body.getAttribute("data-offline-page");
    if (asked) {
      window.addEventListener("online", function () {
        window.setTimeout(reload, 500);
      });
      window.setInterval(reload, 5000);
    }
  }

  // --- Signing out ------------------------------------------------------------------

  // The next person to use this phone sees none of what was typed here. A round that
  // waits to be sent would be lost with it: that is asked first. (Another account's
  // drafts, which this page never shows, stay for that account.)
  function forgetEverything() {
    keys().forEach(function (key) {
      if (ours(read(key))) store.removeItem(key);
    });
    try {
      window.sessionStorage.removeItem(SENT);
      // htmx's copies of the pages it moved between in place (hx-push-url: a league's
      // standings by game and dates), kept in this tab for its Back: the account's.
      window.sessionStorage.removeItem("htmx-history-cache");
    } catch (error) {
      // Refused: nothing was kept there either.
    }
    sentNote = null;
    if (timer) window.clearInterval(timer);
    timer = null;
    // Nothing writes a draft again on the way out (a late preview, a keystroke).
    store = null;
  }

  var OFFLINE_SIGN_OUT = "No connection: you are still signed in, and nothing typed was cleared. Sign out once the phone is back online.";

  function signOutOffline() {
    var main = document.getElementById("main") || document.body;
    var old = main.querySelector("[data-sign-out-offline]");
    if (old) old.parentNode.removeChild(old);
    main.insertAdjacentElement("afterbegin", message(OFFLINE_SIGN_OUT, "data-sign-out-offline", "message-error", "alert"));
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-sign-out")) return;
    if (!navigator.onLine) {
      // The server would not hear it: the phone would stay signed in, its drafts gone.
      event.preventDefault();
      signOutOffline();
      return;
    }
    var waiting = waitingCount();
    var ask = (waiting === 1 ? "1 round" : waiting + " rounds") + " not yet sent: sign out anyway?";
    if (waiting && !window.confirm(ask)) {
      event.preventDefault();
      return;
    }
    if (store) forgetEverything();
  });

  // --- The service worker -----------------------------------------------------------

  var script = document.currentScript;
  var worker = script && script.getAttribute("data-service-worker");
  if (worker && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(worker).catch(function () {
        // Refused (blocked, an insecure origin): the app works as a plain website.
      });
    });
  }
})();
