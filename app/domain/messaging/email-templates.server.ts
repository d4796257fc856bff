import { type SiteData } from '~/domain/site/site'
import { type Language } from '~/i18n/config'

/**
 * What an e-mail says (`EmailContent`) and the frame it is sent in (`EmailFrame`), and `renderEmail`,
 * which renders them in the one template (email-layout.server.tsx). Apart from the template so that
 * the modules that write e-mails load no react-email until one is rendered (decision 0094).
 */

/** A link in one of an e-mail's lists. */
export type EmailLink = { text: string; url: string }

export type EmailContent = {
	/** The line mail programs show beside the subject. */
	preview: string
	heading: string
	paragraphs: string[]
	facts?: Array<{ label: string; value: string }>
	/** A list of links (the digest's requests). */
	items?: EmailLink[]
	/** A second list under its own lead (the digest's requests still waiting for an offer). */
	more?: { lead: string; items: EmailLink[] }
	action?: { label: string; url: string }
}

export type EmailFrame = {
	site: SiteData
	language: Language
	/** The portal's address, for the logo and the links. */
	appUrl: string
	/** Both present on e-mails one may turn off; account and billing e-mails have neither. */
	preferencesUrl?: string
	unsubscribeUrl?: string
}

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
