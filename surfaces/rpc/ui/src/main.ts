// The web view of noggin-rpc: /ui/ lists the served noggins, /ui/NAME opens
// one. A token server's token is asked once per tab (or comes in the
// address's #token= fragment from `noggin-rpc ui`, which is never sent to
// the server) and kept in sessionStorage.
import { client, isAuthError, message, token } from "./api";
import { NogginPage } from "./app";
import { el, oneLine } from "./text";

const root = el("div", "root");
document.body.append(root);

function takeFragmentToken(): void {
  const m = /^#token=(.+)$/.exec(location.hash);
  if (!m) return;
  token.set(decodeURIComponent(m[1]));
  history.replaceState(null, "", location.pathname + location.search);
}

// nogginName is the noggin the address names ("" for the list page;
// undefined for an address that is not one: bad %-escapes).
function nogginName(): string | undefined {
  const rest = location.pathname.replace(/^\/ui\/?/, "");
  try {
    return rest.split("/").map(decodeURIComponent).join("/");
  } catch {
    return undefined;
  }
}

function login(refused: boolean): void {
  const form = el("form", "login");
  const landmark = el("main");
  landmark.append(form);
  form.append(el("h1", "", "noggin"), el("p", "", refused && token.get() ? "That token was refused. Enter the server's token:" : "This server needs its token:"));
  const input = el("input");
  input.type = "password";
  input.autocomplete = "off";
  input.setAttribute("aria-label", "token");
  const go = el("button", "", "Open");
  form.append(input, go);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    token.set(input.value);
    void start();
  });
  root.replaceChildren(landmark);
  input.focus();
}

// listPage shows the served noggins and keeps the list current: it asks
// the server again every listEvery ms while the tab is visible.
const listEvery = 2000;

async function listPage(): Promise<void> {
  const page = el("main", "list");
  const intro = el("p");
  const ul = el("ul");
  const more = el("p", "", "(and more)");
  page.append(el("h1", "", "noggin"), intro, ul, more);
  root.replaceChildren(page);
  let shown = "";
  for (;;) {
    const res = await client.list({});
    const key = JSON.stringify([res.names, res.truncated]);
    if (key !== shown) {
      shown = key;
      intro.textContent = res.names.length ? "The noggins this server serves:" : "This server serves no noggin yet.";
      ul.replaceChildren(...res.names.map((name) => {
        const a = el("a", "", oneLine(name));
        a.href = "/ui/" + name.split("/").map(encodeURIComponent).join("/");
        const li = el("li");
        li.append(a);
        return li;
      }));
      more.hidden = !res.truncated;
    }
    do await new Promise((r) => setTimeout(r, listEvery));
    while (document.hidden);
  }
}

async function start(): Promise<void> {
  const name = nogginName();
  if (name === undefined) {
    root.replaceChildren(el("p", "alert", "This address names no noggin."));
    return;
  }
  try {
    if (name === "") {
      await listPage();
      return;
    }
    await client.list({}); // asks for the token before anything else
    const page = new NogginPage(name, () => login(true));
    document.title = oneLine(name) + " · noggin";
    root.replaceChildren(page.el);
    page.focus();
    void page.start();
  } catch (e) {
    if (isAuthError(e)) login(token.get() !== null);
    else root.replaceChildren(el("p", "alert", message(e)));
  }
}

takeFragmentToken();
void start();
