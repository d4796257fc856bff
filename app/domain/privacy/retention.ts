/**
 * How long the portal keeps what it no longer needs (issue 21, decision 0106), in months. The
 * privacy page says the same in words; `applyRetention` removes what is older, daily.
 */
export const RETENTION_MONTHS = {
	/** Notifications the person has read, from the time they read them. */
	readNotifications: 12,
	/** Chat messages between two people who share no request that is still under way. */
	closedChats: 24,
	/** Messages sent through the contact form. */
	contactMessages: 24,
	/** Log-in records (sessions, API tokens), from the day they expired; the audit log's sign-ins (with their method), from the day they were made. */
	logIns: 12,
} as const

/**
 * E-mails the outbox has sent (or kept as a file), in days from the sending: long enough to answer
 * "did you e-mail me?" and to see a bounce wave, short enough that the table stays small. Nothing
 * legally kept lives only here: an invoice's PDF is its own upload (invoices.pdf_upload_id) and its
 * e-invoice XML is made again from the invoice row (decision 0110).
 */
export const SENT_EMAIL_DAYS = 90

/**
 * A request widget's waiting request (issue 37, decision 0153: the e-mail, phone and what was
 * asked), in days from the end of its link: past it the link only says "expired", and a confirmed
 * one lives on as the request itself.
 */
export const WIDGET_REQUEST_DAYS = 7

/** `now` less `months` calendar months (the day clamped to the shorter month's last). */
export function monthsBefore(now: Date, months: number): Date {
	const date = new Date(now)
	const day = date.getUTCDate()
	date.setUTCDate(1)
	date.setUTCMonth(date.getUTCMonth() - months)
	const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
	date.setUTCDate(Math.min(day, last))
	return date
}
