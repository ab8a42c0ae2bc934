/** Text placed in HTML (element content or a quoted attribute) as characters, never as markup. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
