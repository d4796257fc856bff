import { type EmailContent, type EmailFrame } from './email-content'

/**
 * `renderEmail` renders what an e-mail says in its frame (email-content.ts) in the one template
 * (email-layout.server.tsx). Apart from the template so that the modules that write e-mails load
 * no react-email until one is rendered (decision 0094).
 */

/** An e-mail written as text (paragraphs apart by a blank line), in the one template. */
export function letter(subject: string, text: string): EmailContent {
	return { preview: subject, heading: subject, paragraphs: text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean) }
}

/**
 * The HTML and the plain-text part of an e-mail. The template and react-email are loaded on the
 * first e-mail, not at start: they are the slowest modules the server has (decision 0094).
 */
export async function renderEmail(frame: EmailFrame, content: EmailContent): Promise<{ html: string; text: string }> {
	const { renderEmailParts } = await import('./email-layout.server')
	return renderEmailParts(frame, content)
}
