import { type SiteData } from '~/domain/site/site'
import { type Language } from '~/i18n/config'

/**
 * What an e-mail says (`EmailContent`) and the frame it is sent in (`EmailFrame`): the words of the
 * modules that write e-mails, and the input of the one template (email-layout.server.tsx). Below
 * both, so the template and `renderEmail`, which loads it, do not import each other.
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
