extension UIPage {
    /// `app.js`: the sheet (live, from the event stream) and the Apps, Data types (with each type's
    /// source order), Access history and Data pages (from the JSON calls). Dates are shown and picked in the browser's local time.
    static let script = Array(#"""
        "use strict";
        const DAY = 86400000;
        const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
        const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        const READ_WORDS = { full: "All data", from: "From a date", deny: "No access" };
        const SHARE_WORDS = { allow: "Allowed", deny: "Not allowed" };

        let prompts = [];
        let shownPrompt = null;
        let connected = false;
        let currentTab = "apps";

        function el(tag, attrs, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(attrs || {})) {
            if (value === undefined || value === null || value === false) continue;
            if (key === "class") node.className = value;
            else if (key === "text") node.textContent = value;
            else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
            else node.setAttribute(key, value === true ? "" : value);
          }
          for (const child of children.flat()) {
            if (child === null || child === undefined) continue;
            node.append(typeof child === "string" ? document.createTextNode(child) : child);
          }
          return node;
        }

        /// Replaces `node`'s children (arrays flattened, nulls skipped).
        function fill(node, ...children) {
          node.replaceChildren(...children.flat(Infinity).filter(c => c !== null && c !== undefined));
        }

        function pad(n) { return String(n).padStart(2, "0"); }
        function isoDate(d) { return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`; }
        function today() { return isoDate(new Date()); }
        function parseDate(text) {
          const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text || "");
          return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
        }
        function dayWords(d) { return `${WEEKDAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}`; }
        function localTime(ms) {
          const d = new Date(ms);
          return `${dayWords(d)} ${d.getFullYear()}, ${pad(d.getHours())}:${pad(d.getMinutes())}`;
        }
        function clock(d) { return `${pad(d.getHours())}:${pad(d.getMinutes())}`; }

        /// `4 min`, `30 s`, `2 h`, `3 days`: a rough length of time (as the terminal agent writes it).
        function span(ms) {
          const s = Math.max(0, Math.floor(ms / 1000));
          if (s < 120) return `${s} s`;
          if (s < 7200) return `${Math.floor(s / 60)} min`;
          if (s < 172800) return `${Math.floor(s / 3600)} h`;
          return `${Math.floor(s / 86400)} days`;
        }

        /// "Waits for your answer until 14:32 (4 min left)", with the day when it is not today; or that
        /// the app set no time limit.
        function deadlineWords(deadline, now) {
          if (!deadline) return "No time limit: the app waits until you answer.";
          const d = new Date(deadline);
          const when = isoDate(d) === isoDate(new Date(now)) ? clock(d) : `${dayWords(d)} ${d.getFullYear()}, ${clock(d)}`;
          const left = deadline - now;
          return left > 0 ? `Waits for your answer until ${when} (${span(left)} left).` : `Waited for your answer until ${when}: the time is up.`;
        }

        /// Redraws the sheet's countdown (every second while a prompt with a deadline shows).
        function tickDeadline() {
          const node = document.getElementById("sheet-deadline");
          const prompt = prompts[0];
          if (!node || !prompt || String(prompt.id) !== node.dataset.prompt) return;
          node.textContent = deadlineWords(prompt.deadline, Date.now());
          node.className = prompt.deadline && prompt.deadline - Date.now() < 60000 ? "deadline soon" : "deadline";
        }
        setInterval(tickDeadline, 1000);

        /// "this app will see your data from Tue 17 Nov on — 14 days", or why the date cannot be used.
        function preview(text) {
          const d = parseDate(text);
          if (!d) return { ok: false, text: "Choose the first day the app may see." };
          const start = parseDate(today());
          const days = Math.round((start - d) / DAY);
          if (days < 0) return { ok: false, text: "That day is in the future: choose today or an earlier day." };
          const span = days === 0 ? "today only" : days === 1 ? "1 day" : `${days} days`;
          return { ok: true, text: `This app will see your data from ${dayWords(d)} on — ${span}.` };
        }

        /// The number of the newest GET per path: an older reply arriving after a newer one is marked stale.
        const newestGet = new Map();

        async function call(method, path, body) {
          const number = (newestGet.get(path) || 0) + 1;
          if (method === "GET") newestGet.set(path, number);
          const options = { method, headers: {} };
          if (body !== undefined) {
            options.headers["content-type"] = "application/json";
            options.body = JSON.stringify(body);
          }
          const response = await fetch(path, options);
          let data = {};
          try { data = await response.json(); } catch (e) { data = {}; }
          if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
          if (method === "GET" && newestGet.get(path) !== number) data.stale = true;
          return data;
        }

        function sortTypes(types) {
          return [...types].sort((a, b) => a.groupRank - b.groupRank);
        }

        // ---- The sheet -------------------------------------------------------------------------

        function readControl(type, onchange) {
          const select = el("select", { class: "read", "data-kind": "read", "data-type": type.alias, "aria-label": `Read ${type.name}` },
            el("option", { value: "deny", text: "No access" }),
            el("option", { value: "full", text: "All data" }),
            type.sample ? el("option", { value: "from", text: "From a date…" }) : null);
          const date = el("input", { type: "date", class: "from", "data-type": type.alias, max: today(), hidden: true,
            "aria-label": `First day for ${type.name}` });
          const note = el("div", { class: "preview", hidden: true });
          function update() {
            const from = select.value === "from";
            date.hidden = !from;
            note.hidden = !from;
            if (from) {
              if (!date.value) date.value = isoDate(new Date(Date.now() - 30 * DAY));
              const p = preview(date.value);
              note.textContent = p.text;
              note.className = p.ok ? "preview" : "preview bad";
            }
            onchange && onchange();
          }
          select.addEventListener("change", update);
          date.addEventListener("input", update);
          date.addEventListener("change", update);
          return { select, date, note, update,
            value() {
              if (select.value !== "from") return { read: select.value };
              return { read: "from", from: date.value };
            },
            valid() { return select.value !== "from" || preview(date.value).ok; } };
        }

        function shareControl(type) {
          return el("select", { class: "share", "data-kind": "share", "data-type": type.alias, "aria-label": `Write ${type.name}` },
            el("option", { value: "deny", text: "Don't allow" }),
            el("option", { value: "allow", text: "Allow" }));
        }

        function renderSheet() {
          const backdrop = document.getElementById("backdrop");
          const sheet = document.getElementById("sheet");
          const prompt = prompts[0];
          if (!prompt) {
            backdrop.hidden = true;
            fill(sheet);
            sheet.removeAttribute("data-prompt");
            shownPrompt = null;
            return;
          }
          const queue = document.getElementById("sheet-queue");
          if (shownPrompt === prompt.id) {
            if (queue) queue.textContent = prompts.length > 1 ? `${prompts.length - 1} more waiting` : "";
            return;
          }
          shownPrompt = prompt.id;
          sheet.setAttribute("data-prompt", String(prompt.id));
          const byAlias = new Map();
          for (const t of prompt.share) byAlias.set(t.alias, { type: t, share: true, read: false });
          for (const t of prompt.read) {
            const entry = byAlias.get(t.alias) || { type: t, share: false, read: false };
            entry.read = true;
            byAlias.set(t.alias, entry);
          }
          const entries = sortTypes([...byAlias.values()].map(e => e.type)).map(t => byAlias.get(t.alias));
          const controls = [];
          const error = el("div", { class: "error", id: "sheet-error" });
          const submit = el("button", { class: "action primary", id: "sheet-submit", text: "Allow as chosen" });
          function check() {
            submit.disabled = !controls.every(c => !c.read || c.read.valid());
          }
          const rows = [];
          let group = null;
          for (const entry of entries) {
            if (entry.type.group !== group) {
              group = entry.type.group;
              rows.push(el("div", { class: "group", text: group }));
            }
            const control = { type: entry.type };
            const parts = [];
            if (entry.share) {
              control.share = shareControl(entry.type);
              parts.push(el("label", {}, "Write ", control.share));
            }
            if (entry.read) {
              control.read = readControl(entry.type, check);
              parts.push(el("label", {}, "Read ", control.read.select, " ", control.read.date));
            }
            controls.push(control);
            rows.push(el("div", { class: "typerow", "data-type": entry.type.alias },
              el("div", {}, el("div", { class: "name", text: entry.type.name }),
                el("div", { class: "sub", text: entry.type.sample ? "" : "A fact about you, not a series of samples" })),
              el("div", { class: "controls" }, parts),
              control.read ? control.read.note : null));
          }
          function allOn() {
            for (const c of controls) {
              if (c.share) c.share.value = "allow";
              if (c.read) { c.read.select.value = "full"; c.read.update(); }
            }
            check();
          }
          async function send() {
            error.textContent = "";
            const decisions = controls.map(c => {
              const d = { type: c.type.alias };
              if (c.share) d.share = c.share.value;
              if (c.read) Object.assign(d, c.read.value());
              return d;
            });
            try {
              submit.disabled = true;
              await call("POST", "api/answer", { prompt: prompt.id, decisions });
              dropPrompt(prompt.id);
            } catch (e) {
              error.textContent = e.message;
              check();
            }
          }
          async function cancel() {
            try {
              await call("POST", "api/cancel", { prompt: prompt.id });
              dropPrompt(prompt.id);
            } catch (e) { error.textContent = e.message; }
          }
          submit.addEventListener("click", send);
          fill(sheet, 
            el("h2", { id: "sheet-title", text: `“${prompt.appName}” would like to access your health data` }),
            el("div", { class: "sub", text: `${prompt.appID} · asked ${localTime(prompt.created)}` }),
            el("div", { class: "deadline", id: "sheet-deadline", "data-prompt": String(prompt.id),
              "data-deadline": prompt.deadline ? String(prompt.deadline) : "" }),
            prompt.readUsage ? el("div", { class: "usage" }, el("b", { text: "Why it reads" }), prompt.readUsage) : null,
            prompt.shareUsage ? el("div", { class: "usage" }, el("b", { text: "Why it writes" }), prompt.shareUsage) : null,
            el("div", { class: "buttons" }, el("span", { class: "spacer" }),
              el("button", { class: "action", id: "sheet-all-on", text: "Turn all on", onclick: allOn })),
            rows,
            error,
            el("div", { class: "buttons" },
              el("span", { class: "queue", id: "sheet-queue", text: prompts.length > 1 ? `${prompts.length - 1} more waiting` : "" }),
              el("span", { class: "spacer" }),
              el("button", { class: "action", id: "sheet-cancel", text: "Cancel", onclick: cancel }),
              submit));
          backdrop.hidden = false;
          tickDeadline();
          check();
        }

        function dropPrompt(id) {
          prompts = prompts.filter(p => p.id !== id);
          renderSheet();
          refresh();
        }

        // ---- The pages ---------------------------------------------------------------------------

        function decisionWords(grant) {
          const parts = [];
          if (grant.share) parts.push(`write: ${SHARE_WORDS[grant.share]}`);
          if (grant.read === "from") parts.push(`read: from ${dayWords(new Date(grant.from))} ${new Date(grant.from).getFullYear()}`);
          else if (grant.read) parts.push(`read: ${READ_WORDS[grant.read]}`);
          return parts.join(", ");
        }

        /// What the last change of each row said ("app|type" → text), kept across redraws.
        const rowNotes = new Map();
        /// Each row's changes, one after another, so the broker records them in the order made.
        const rowSaves = new Map();
        /// The rows drawn last ("app|type" → { signature, row }): a redraw keeps a row whose
        /// decision did not change, with whatever the person is in the middle of choosing.
        let drawnRows = new Map();

        function grantRow(app, grant, keep) {
          const key = `${app.appID}|${grant.type.alias}`;
          const signature = JSON.stringify(grant);
          const previous = drawnRows.get(key);
          if (previous && previous.signature === signature) {
            keep.set(key, previous);
            return previous.row;
          }
          const status = el("span", { class: "saved", text: rowNotes.get(key) || "" });
          const row = el("tr", { "data-app": app.appID, "data-type": grant.type.alias });
          keep.set(key, { signature, row });
          const read = readControl(grant.type, null);
          if (grant.read) {
            read.select.value = grant.read;
            if (grant.read === "from") read.date.value = isoDate(new Date(grant.from));
            read.update();
          }
          const share = grant.share ? shareControl(grant.type) : null;
          if (share) share.value = grant.share;
          function save() {
            if (!read.valid()) return;
            const decision = { type: grant.type.alias };
            if (grant.read) Object.assign(decision, read.value());
            if (share) decision.share = share.value;
            const previousSave = rowSaves.get(key) || Promise.resolve();
            const next = previousSave.then(async () => {
              status.className = "saved";
              try {
                const saved = await call("POST", "api/grant", { app: app.appID, decision });
                const note = `Saved (${decisionWords(saved)}): the app sees this on its next call.`;
                rowNotes.set(key, note);
                for (const node of document.querySelectorAll(".saved")) {
                  if (node.closest("tr")?.dataset.app === app.appID && node.closest("tr")?.dataset.type === grant.type.alias) node.textContent = note;
                }
                status.textContent = note;
              } catch (e) {
                status.className = "error";
                status.textContent = e.message;
              }
            });
            rowSaves.set(key, next);
          }
          read.select.addEventListener("change", () => { if (read.select.value !== "from" || read.valid()) save(); });
          read.date.addEventListener("change", save);
          if (share) share.addEventListener("change", save);
          async function forget() {
            try {
              await call("POST", "api/forget", { app: app.appID, type: grant.type.alias });
              rowNotes.delete(key);
              refresh();
            } catch (e) { status.className = "error"; status.textContent = e.message; }
          }
          row.append(
            el("td", {}, el("div", { class: "name", text: grant.type.name }), el("div", { class: "sub", text: grant.type.group })),
            el("td", {}, share || el("span", { class: "sub", text: "—" })),
            el("td", {}, grant.read ? [read.select, " ", read.date, read.note] : el("span", { class: "sub", text: "—" })),
            el("td", { class: "sub", text: `${grant.decidedBy}, ${localTime(grant.decided)}` }),
            el("td", {}, el("button", { class: "link forget", text: "Forget", title: "Forget this decision: the app will be asked again", onclick: forget }), el("div", {}, status)));
          return row;
        }

        async function showApps() {
          const page = document.getElementById("page-apps");
          const data = await call("GET", "api/apps");
          if (data.stale) return;
          const keep = new Map();
          const cards = data.apps.map(app => {
            const badges = [];
            if (!app.registered) badges.push(el("span", { class: "badge", text: "removed" }));
            if (app.asked) badges.push(el("span", { class: "badge", text: "asked" }));
            if (app.sampleCount) badges.push(el("span", { class: "badge", text: `wrote ${app.sampleCount} samples` }));
            const grants = sortTypes(app.grants.map(g => g.type)).map(t => app.grants.find(g => g.type.alias === t.alias));
            return el("div", { class: "card app", "data-app": app.appID },
              el("h2", {}, app.name, badges),
              el("div", { class: "sub", text: app.appID + (app.lastAsked ? ` · last asked ${localTime(app.lastAsked)}` : "") }),
              grants.length === 0
                ? el("p", { class: "sub", text: app.registered ? "No decisions yet." : "Removed: its decisions were dropped." })
                : el("table", {}, el("tr", {}, ["Type", "Write", "Read", "Decided", ""].map(h => el("th", { text: h }))),
                    grants.map(g => grantRow(app, g, keep))));
          });
          drawnRows = keep;
          fill(page, el("p", { class: "sub", text: "Every app that asked for your health data or wrote some. Changes apply on the app's next call." }),
            cards.length ? cards : el("p", { text: "No apps yet." }));
        }

        /// What the last change of each type's source order said (alias → text), kept across redraws.
        const sourceNotes = new Map();

        /// A type's sources in the person's order (the one statistics use): move up or down, or go
        /// back to the default order; each change is saved at once and the page redrawn from the broker.
        function sourceOrderSection(type, order) {
          const status = el("span", { class: "saved", text: sourceNotes.get(type.alias) || "" });
          async function save(body, note) {
            try {
              await call("POST", "api/priority", body);
              sourceNotes.set(type.alias, note);
              status.className = "saved";
              status.textContent = note;
              refresh();
            } catch (e) {
              status.className = "error";
              status.textContent = e.message;
            }
          }
          function move(index, delta) {
            const next = [...order.sources];
            const [moved] = next.splice(index, 1);
            next.splice(index + delta, 0, moved);
            save({ type: type.alias, apps: next.map(s => s.appID) }, `Saved: ${next[0].name} now counts first.`);
          }
          const last = order.sources.length - 1;
          return el("div", { class: "source-order", "data-type": type.alias, "data-custom": order.custom ? "yes" : "no" },
            el("h3", { text: "Data sources" }),
            el("p", { class: "sub", text: `When two sources count the same ${type.name.toLowerCase()}, the one higher in this list is used ` +
              "and the ones below add nothing for that time, so nothing is counted twice. Every sample is still kept." }),
            el("ol", { class: "sources" }, order.sources.map((source, index) =>
              el("li", { "data-app": source.appID },
                el("span", { class: "rank", text: String(index + 1) }),
                el("div", { class: "who" }, el("div", { class: "name", text: source.name }), el("div", { class: "sub", text: source.appID })),
                el("button", { class: "action move-up", text: "↑", title: "Move up", "aria-label": `Move ${source.name} up`,
                  disabled: index === 0, onclick: () => move(index, -1) }),
                el("button", { class: "action move-down", text: "↓", title: "Move down", "aria-label": `Move ${source.name} down`,
                  disabled: index === last, onclick: () => move(index, 1) })))),
            el("div", { class: "buttons" }, status, el("span", { class: "spacer" }),
              el("span", { class: "sub", text: order.custom ? "Your order" : "Default order (by app id)" }),
              el("button", { class: "action reset-order", text: "Reset to default order", disabled: !order.custom,
                onclick: () => save({ type: type.alias, reset: true }, "Saved: back to the default order.") })));
        }

        async function showTypes() {
          const page = document.getElementById("page-types");
          // The source orders are extra: when they cannot be loaded the decisions still show.
          const [data, sourceData] = await Promise.all([call("GET", "api/apps"),
            call("GET", "api/sources").catch(e => ({ orders: [], failed: e.message }))]);
          if (data.stale || sourceData.stale) return;
          const orders = new Map(sourceData.orders.map(o => [o.type.alias, o]));
          const decided = data.types.filter(t => orders.has(t.alias) || data.apps.some(a => a.grants.some(g => g.type.alias === t.alias)));
          const cards = sortTypes(decided).map(type => {
            const readers = [], writers = [], denied = [];
            for (const app of data.apps) {
              const g = app.grants.find(g => g.type.alias === type.alias);
              if (!g) continue;
              if (g.read === "full") readers.push(app.name);
              else if (g.read === "from") readers.push(`${app.name} (from ${dayWords(new Date(g.from))})`);
              if (g.share === "allow") writers.push(app.name);
              if (g.read === "deny" || g.share === "deny") denied.push(app.name);
            }
            const granted = data.apps.filter(app => app.grants.some(g => g.type.alias === type.alias &&
              (g.read === "full" || g.read === "from" || g.share === "allow")));
            async function turnOff() {
              for (const app of granted) {
                const g = app.grants.find(g => g.type.alias === type.alias);
                const decision = { type: type.alias };
                if (g.read) decision.read = "deny";
                if (g.share) decision.share = "deny";
                try { await call("POST", "api/grant", { app: app.appID, decision }); }
                catch (e) { alert(`${app.name}: ${e.message}`); }
              }
              refresh();
            }
            return el("div", { class: "card type", "data-type": type.alias },
              el("h2", {}, type.name, " ",
                granted.length ? el("button", { class: "link turn-off", text: "Turn off for all apps", onclick: turnOff }) : null),
              el("div", { class: "sub", text: `${type.group} · ${type.alias}` }),
              el("table", {},
                el("tr", {}, el("th", { text: "May read" }), el("td", { text: readers.join(", ") || "no app" })),
                type.sample ? el("tr", {}, el("th", { text: "May write" }), el("td", { text: writers.join(", ") || "no app" })) : null,
                denied.length ? el("tr", {}, el("th", { text: "Turned off for" }), el("td", { text: denied.join(", ") })) : null),
              orders.has(type.alias) ? sourceOrderSection(type, orders.get(type.alias)) : null);
          });
          fill(page, el("p", { class: "sub", text: "Each kind of data some app asked for or two apps wrote, which apps may read and write it, and which source counts first." }),
            sourceData.failed ? el("p", { class: "error", text: `Source orders are not available: ${sourceData.failed}` }) : null,
            cards.length ? cards : el("p", { text: "No app has asked for any data yet." }));
        }

        async function showHistory() {
          const page = document.getElementById("page-history");
          const data = await call("GET", "api/history?limit=500");
          if (data.stale) return;
          fill(page, 
            el("p", { class: "sub", text: "Who read or wrote which kind of data, and when (your local time). Values are never shown or kept here." }),
            data.rows.length === 0 ? el("p", { text: "Nothing yet." }) :
            el("table", { class: "history" },
              el("tr", {}, ["When", "App", "What", "Type", "Samples"].map(h => el("th", { text: h }))),
              data.rows.map(r => el("tr", {},
                el("td", { text: localTime(r.at) }), el("td", { text: r.appName }),
                el("td", { text: r.method ? `${r.operation} (${r.method})` : r.operation }),
                el("td", { text: r.type.name }), el("td", { text: String(r.count) })))));
        }

        /// A chart of statistics buckets over `days` days ending today: bars of daily totals
        /// (cumulative types), or a lowest–highest line with a dot at the average (discrete types).
        function chart(type, buckets, days) {
          const ns = "http://www.w3.org/2000/svg";
          const node = (tag, attrs, text) => {
            const n = document.createElementNS(ns, tag);
            for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
            if (text !== undefined) n.textContent = text;
            return n;
          };
          const W = 900, H = 190, left = 50, right = 10, top = 10, bottom = 24;
          const svg = node("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${type.name} chart` });
          const first = parseDate(today());
          first.setDate(first.getDate() - (days - 1));
          const values = buckets.flatMap(b => type.cumulative ? [b.sum || 0] : [b.max || 0]);
          const peak = Math.max(1, ...values);
          const slot = (W - left - right) / days;
          const y = v => top + (H - top - bottom) * (1 - v / peak);
          svg.append(node("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, stroke: "#ccc" }));
          svg.append(node("text", { x: left - 6, y: top + 8, "text-anchor": "end" }, String(Math.round(peak * 100) / 100)));
          svg.append(node("text", { x: left - 6, y: H - bottom, "text-anchor": "end" }, "0"));
          svg.append(node("text", { x: left, y: H - 6 }, dayWords(first)));
          svg.append(node("text", { x: W - right, y: H - 6, "text-anchor": "end" }, "today"));
          for (const b of buckets) {
            const index = Math.round((parseDate(b.day) - first) / DAY);
            const x = left + index * slot;
            if (type.cumulative) {
              const bar = node("rect", { class: "bar", x: x + 1, width: Math.max(1, slot - 2), y: y(b.sum || 0),
                height: (H - bottom) - y(b.sum || 0), "data-value": b.sum || 0, "data-day": b.day });
              bar.append(node("title", {}, `${dayWords(parseDate(b.day))}: ${b.sum}`));
              svg.append(bar);
            } else {
              svg.append(node("line", { class: "range", x1: x + slot / 2, x2: x + slot / 2, y1: y(b.min || 0), y2: y(b.max || 0),
                "data-min": b.min, "data-max": b.max, "data-day": b.day }));
              const dot = node("circle", { class: "avg", r: 4, cx: x + slot / 2, cy: y(b.average || 0), "data-value": b.average || 0, "data-day": b.day });
              dot.append(node("title", {}, `${dayWords(parseDate(b.day))}: ${b.min}–${b.max}, average ${Math.round(b.average * 10) / 10}`));
              svg.append(dot);
            }
          }
          return svg;
        }

        async function showData() {
          const page = document.getElementById("page-data");
          let data;
          try {
            data = await call("GET", "api/statistics?days=30");
          } catch (e) {
            fill(page, el("p", { class: "sub", text: `Charts are not available: ${e.message}` }));
            return;
          }
          if (data.stale) return;
          if (data.series.length === 0) {
            fill(page, el("p", { class: "sub", text: `No data in the last ${data.days} days.` }));
            return;
          }
          fill(page, el("p", { class: "sub", text: `Your data from every app, per day, over the last ${data.days} days (statistics only: no single value is shown).` }),
            data.series.map(s => el("div", { class: "card chart-card", "data-type": s.type.alias },
            el("h2", { text: s.type.name }),
            el("div", { class: "sub", text: s.type.cumulative ? `Daily totals (${s.unit})` : `Lowest, average and highest per day (${s.unit})` }),
            chart(s.type, s.buckets, data.days))));
        }

        const pages = { apps: showApps, types: showTypes, history: showHistory, data: showData };

        async function refresh() {
          try {
            await pages[currentTab]();
            document.getElementById("notice").hidden = true;
          } catch (e) {
            const notice = document.getElementById("notice");
            notice.textContent = `Could not load: ${e.message}`;
            notice.hidden = false;
          }
        }

        function selectTab(name) {
          currentTab = name;
          for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === name);
          for (const p of document.querySelectorAll(".page")) p.hidden = p.id !== `page-${name}`;
          refresh();
        }

        function listen() {
          const source = new EventSource("events");
          const status = document.getElementById("connection");
          source.addEventListener("prompts", event => {
            const data = JSON.parse(event.data);
            connected = data.connected;
            // A new request may come from an app the open page does not list yet: redraw behind the sheet.
            const known = new Set(prompts.map(p => p.id));
            const asking = data.prompts.some(p => !known.has(p.id));
            prompts = data.prompts;
            if (asking && currentTab !== "data") refresh();
            status.textContent = connected ? "connected to the broker" : "broker not reachable: retrying…";
            status.classList.toggle("down", !connected);
            renderSheet();
          });
          source.addEventListener("changed", () => { if (currentTab !== "data") refresh(); });
          source.addEventListener("error", () => {
            status.textContent = "page server not reachable: retrying…";
            status.classList.add("down");
          });
        }

        document.addEventListener("DOMContentLoaded", () => {
          for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => selectTab(b.dataset.tab));
          selectTab("apps");
          listen();
        });

        """#.utf8)
}
