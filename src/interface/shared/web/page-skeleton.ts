// What the portal and the console share on screen (decision 0111): head, sign-in card, header, notice lines and
// tabs; each page gives its own parts. Every part is markup from this repository: no request value reaches a
// page's document (its script fills values in, as text).
export interface PageSkeleton {
  /** Where the page is served (`/console`); its files are under it. */
  path: string;
  /** The page's name: its title and the sign-in card's heading. */
  title: string;
  /** The page's own files, served under `path`: its entry module, style sheet and icon. */
  script: string;
  stylesheet: string;
  icon: string;
  /** What shows without JavaScript. */
  noscript: string;
  signIn: {
    /** What to sign in with, and what becomes of it. */
    intro: string;
    /** The credential's field: its id (also its name), label and longest length. */
    field: { id: string; label: string; maxLength: number };
    /** What the credential is called (`token`, `key`). */
    credential: string;
  };
  /** The id of what shows once signed in (the page's scripts and style sheet address it). */
  signedIn: string;
  /** The header's own part, before Refresh and Sign out. */
  header: string;
  /** Above the notice and failure lines (a warning banner), and below them (a key or secret shown once). */
  aboveNotices?: string;
  belowNotices?: string;
  /** The tabs, the first one open: `name` is `data-tab`, whose panel is `tab-<name>`. */
  tabs: readonly { name: string; label: string }[];
}

/** The style sheet every page loads first, served under each page's path. */
export const SHARED_STYLESHEET = 'shared.css';

/** `text`'s lines, each indented by `depth` spaces (blank lines stay blank). */
function indented(text: string, depth: number): string {
  return text
    .split('\n')
    .map((line) => (line ? ' '.repeat(depth) + line : line))
    .join('\n');
}

/** The page's document: the skeleton with the page's parts, and its tab panels (`panels`) after the tabs. */
export function pageDocument(page: PageSkeleton, panels: string): string {
  const { path, signIn } = page;
  const tabs = page.tabs
    .map(
      (tab, index) =>
        `<button type="button" role="tab" data-tab="${tab.name}" aria-selected="${String(index === 0)}">${tab.label}</button>`,
    )
    .join('\n');
  const notices = [
    page.aboveNotices,
    '<p id="notice" class="notice" role="status" hidden></p>',
    '<p id="failure" class="error" role="alert" hidden></p>',
    page.belowNotices,
  ].filter((part) => part !== undefined);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${page.title}</title>
  <link rel="icon" href="${path}/${page.icon}" type="image/svg+xml">
  <link rel="stylesheet" href="${path}/${SHARED_STYLESHEET}">
  <link rel="stylesheet" href="${path}/${page.stylesheet}">
  <script type="module" src="${path}/${page.script}"></script>
</head>
<body>
  <noscript>${page.noscript}</noscript>

  <main id="sign-in" class="card narrow">
    <h1>${page.title}</h1>
    <p>${indented(signIn.intro, 6).trimStart()}</p>
    <form id="sign-in-form" autocomplete="off">
      <label for="${signIn.field.id}">${signIn.field.label}</label>
      <!-- A text field drawn masked, not a password field: browsers offer to save passwords, and the ${signIn.credential} must not be kept. -->
      <input id="${signIn.field.id}" name="${signIn.field.id}" type="text" class="masked wide" spellcheck="false" autocomplete="off" autocapitalize="off" required maxlength="${signIn.field.maxLength}">
      <button type="submit">Sign in</button>
    </form>
    <p id="sign-in-error" class="error" role="alert" hidden></p>
  </main>

  <div id="${page.signedIn}" hidden>
    <header class="topbar">
${indented(page.header, 6)}
      <div>
        <button id="refresh" type="button">Refresh</button>
        <button id="sign-out" type="button">Sign out</button>
      </div>
    </header>

${indented(notices.join('\n'), 4)}

    <nav class="tabs" role="tablist">
${indented(tabs, 6)}
    </nav>

${panels.trimEnd()}
  </div>
</body>
</html>
`;
}
