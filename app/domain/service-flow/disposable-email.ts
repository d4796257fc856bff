/**
 * Well-known throwaway e-mail services (issue 37, decision 0153): an address there can open a
 * confirmation link without being anyone's, so a widget request from one is refused before any
 * e-mail goes out. A short list of the common ones, not a registry of all: a fake address that
 * is not here still never reaches a workshop, since its link is never opened.
 */
const disposableDomains = new Set([
	'10minutemail.com',
	'10minutemail.net',
	'20minutemail.com',
	'33mail.com',
	'discard.email',
	'dispostable.com',
	'emailondeck.com',
	'fakeinbox.com',
	'fakemail.net',
	'getairmail.com',
	'getnada.com',
	'guerrillamail.biz',
	'guerrillamail.com',
	'guerrillamail.de',
	'guerrillamail.info',
	'guerrillamail.net',
	'guerrillamail.org',
	'guerrillamailblock.com',
	'harakirimail.com',
	'inboxkitten.com',
	'jetable.org',
	'mail.tm',
	'mailcatch.com',
	'maildrop.cc',
	'mailinator.com',
	'mailinator.net',
	'mailnesia.com',
	'mintemail.com',
	'mohmal.com',
	'moakt.com',
	'mytemp.email',
	'nada.email',
	'sharklasers.com',
	'spam4.me',
	'spamgourmet.com',
	'temp-mail.io',
	'temp-mail.org',
	'tempail.com',
	'tempmail.com',
	'tempmail.net',
	'tempmailo.com',
	'tempr.email',
	'throwawaymail.com',
	'trashmail.com',
	'trashmail.de',
	'trashmail.net',
	'yopmail.com',
	'yopmail.fr',
	'yopmail.net',
])

/** True for an address at a known throwaway service, or any subdomain of one. */
export function isDisposableEmail(email: string): boolean {
	const domain = email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase()
	const parts = domain.split('.')
	for (let i = 0; i < parts.length - 1; i++) if (disposableDomains.has(parts.slice(i).join('.'))) return true
	return false
}
