import juice from 'juice';

/**
 * The e-mail layout, inlined by juice once (the notification plugin asks for it at start-up) and then filled per message by plain
 * placeholder substitution. Colours are sentinel values in the stylesheet, replaced after
 * inlining; optional rows are cut out of the inlined document into their own templates.
 */
export const COLOR_SENTINELS = {
  header: '#0a0b0c',
  button: '#0d0e0f',
  accent: '#0a0c0e',
} as const;

const STYLES = `
body, .body { margin: 0; padding: 0; width: 100%; background-color: #f3f4f6; -webkit-text-size-adjust: 100%; }
.wrapper { width: 100%; background-color: #f3f4f6; }
.wrapper-cell { padding: 16px 8px; }
.container { width: 100%; max-width: 600px; margin: 0 auto; border-collapse: separate; }
.logo-cell { padding: 8px 0 16px 0; text-align: left; }
.logo { display: block; max-width: 200px; width: auto; height: auto; max-height: 80px; border: 0; }
.header { background-color: ${COLOR_SENTINELS.header}; color: #ffffff; padding: 20px 24px; border-radius: 8px 8px 0 0; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; }
.importance { margin: 0 0 4px 0; font-size: 12px; font-weight: 700; letter-spacing: 0.08em; text-transform: uppercase; color: #ffffff; }
.title { margin: 0; font-size: 22px; line-height: 1.3; font-weight: 700; color: #ffffff; word-break: break-word; overflow-wrap: anywhere; }
.content { background-color: #ffffff; color: #1f2937; padding: 24px; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; word-break: break-word; overflow-wrap: anywhere; border-top: 4px solid ${COLOR_SENTINELS.accent}; }
.content a { color: ${COLOR_SENTINELS.accent}; }
.content pre { white-space: pre-wrap; word-break: break-all; background-color: #f3f4f6; padding: 12px; border-radius: 4px; font-size: 14px; }
.content code { font-family: Menlo, Consolas, monospace; font-size: 14px; }
.content table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; }
.content th, .content td { border: 1px solid #e5e7eb; padding: 4px 8px; }
.content blockquote { margin: 0; padding-left: 12px; border-left: 4px solid #e5e7eb; color: #4b5563; }
.action-cell { background-color: #ffffff; padding: 0 24px 24px 24px; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; }
.button { display: inline-block; background-color: ${COLOR_SENTINELS.button}; color: #ffffff; padding: 12px 20px; border-radius: 6px; font-size: 16px; font-weight: 600; text-decoration: none; max-width: 100%; word-break: break-word; }
.footer { padding: 16px 24px; color: #6b7280; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 12px; line-height: 1.5; text-align: center; word-break: break-word; overflow-wrap: anywhere; }
.preheader { display: none; max-height: 0; max-width: 0; overflow: hidden; opacity: 0; color: transparent; font-size: 1px; line-height: 1px; mso-hide: all; }
@media only screen and (max-width: 480px) {
  .wrapper-cell { padding: 8px 0 !important; }
  .header, .content, .footer { padding-left: 16px !important; padding-right: 16px !important; }
  .action-cell { padding-left: 16px !important; padding-right: 16px !important; }
  .title { font-size: 20px !important; }
}
`;

const DOCUMENT = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light">
<title>%%TITLE%%</title>
<style>${STYLES}</style>
</head>
<body class="body">
<div class="preheader">%%PREHEADER%%</div>
<table role="presentation" class="wrapper" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td class="wrapper-cell" align="center">
<table role="presentation" class="container" cellpadding="0" cellspacing="0" border="0">
<tr id="ck-logo-row"><td class="logo-cell"><img class="logo" src="%%LOGO_URL%%" alt="%%LOGO_ALT%%"></td></tr>
<tr><td class="header"><p id="ck-importance" class="importance">%%IMPORTANCE%%</p><h1 class="title">%%TITLE%%</h1></td></tr>
<tr><td class="content">%%BODY%%</td></tr>
<tr id="ck-action-row"><td class="action-cell"><a class="button" href="%%ACTION_URL%%" rel="noopener noreferrer" target="_blank">%%ACTION_LABEL%%</a></td></tr>
<tr id="ck-footer-row"><td class="footer">%%FOOTER%%</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;

export interface CompiledEmailTemplate {
  document: string;
  logoRow: string;
  importance: string;
  actionRow: string;
  footerRow: string;
}

let compiled: CompiledEmailTemplate | undefined;

/** The inlined template, compiled by the first call (the plugin's init) and kept for good. */
export function emailTemplate(): CompiledEmailTemplate {
  compiled ??= compile();
  return compiled;
}

function compile(): CompiledEmailTemplate {
  const inlined = juice(DOCUMENT, {
    removeStyleTags: false,
    preserveMediaQueries: true,
    applyWidthAttributes: false,
    applyHeightAttributes: false,
  });
  const parts = { document: inlined } as CompiledEmailTemplate;
  parts.logoRow = cutOut(parts, /<tr id="ck-logo-row"[^>]*>[\s\S]*?<\/tr>/, '%%LOGO_ROW%%');
  parts.importance = cutOut(
    parts,
    /<p id="ck-importance"[^>]*>[\s\S]*?<\/p>/,
    '%%IMPORTANCE_LINE%%',
  );
  parts.actionRow = cutOut(parts, /<tr id="ck-action-row"[^>]*>[\s\S]*?<\/tr>/, '%%ACTION_ROW%%');
  parts.footerRow = cutOut(parts, /<tr id="ck-footer-row"[^>]*>[\s\S]*?<\/tr>/, '%%FOOTER_ROW%%');
  for (const sentinel of Object.values(COLOR_SENTINELS)) {
    if (!Object.values(parts).some((part) => part.includes(sentinel))) {
      throw new Error(`E-mail template lost the colour ${sentinel} while inlining`);
    }
  }
  return parts;
}

function cutOut(parts: CompiledEmailTemplate, pattern: RegExp, placeholder: string): string {
  const match = pattern.exec(parts.document);
  if (!match) throw new Error(`E-mail template has no part ${placeholder}`);
  parts.document = parts.document.replace(match[0], placeholder);
  return match[0].replace(/ id="ck-[a-z-]+"/, '');
}
