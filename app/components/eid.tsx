import { Form, Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormSecurity } from './forms'
import { VerifiedPerson } from './verified-person'

/**
 * The "Smart-ID, Mobile-ID or ID-card" button (issue 36, decision 0150): a plain link to
 * /eid/start, which sends the person to the eID provider, with JavaScript on or off.
 */
export function EidButton({ href, label }: { href: string; label?: string }) {
	const { t } = useTranslation('auth')
	return (
		// A document navigation, never the router's: the next page is the provider's site.
		<a href={href} className="button button--eid" data-testid="eid-button">
			<svg className="button--eid__mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
				<rect x="2.5" y="5" width="19" height="14" rx="2.5" />
				<circle cx="8.5" cy="11" r="2.2" />
				<path d="M5.2 16.2c.6-1.6 1.8-2.4 3.3-2.4s2.7.8 3.3 2.4M14 10h4.5M14 13h3" />
			</svg>
			<span>{label ?? t('eid.button')}</span>
		</a>
	)
}

/** The eID button above the e-mail form, with "or" between them. */
export function EidChoice({ href, intro }: { href: string; intro: string }) {
	const { t } = useTranslation('auth')
	return (
		<div className="eid-choice">
			<p className="eid-choice__intro">{intro}</p>
			<EidButton href={href} />
			<p className="eid-choice__or">
				<span>{t('eid.or')}</span>
			</p>
		</div>
	)
}

/**
 * Above the login and registration forms after an eID no account has: what happens to it here
 * (linked after the password, or a new account with its names), the other way, and forgetting it.
 */
export function PendingEidNote({ title, text, other, back }: { title: string; text: string; other: { to: string; label: string }; back: string }) {
	const { t } = useTranslation('auth')
	return (
		<div className="addressed eid-pending" role="note">
			<p className="addressed__to">{title}</p>
			<p className="field__help">{text}</p>
			<div className="eid-pending__actions">
				<Link to={other.to}>{other.label}</Link>
				<Form method="post" action="/eid/cancel">
					<FormSecurity />
					<input type="hidden" name="back" value={back} />
					<button type="submit" className="button button--ghost button--small">
						{t('eid.forget')}
					</button>
				</Form>
			</div>
		</div>
	)
}

/** The names an eID verified, shown in place of the name fields: they are not for editing. */
export function VerifiedNames({ firstName, lastName, note }: { firstName: string; lastName: string; note: string }) {
	const { t } = useTranslation('auth')
	return (
		<div className="verified-names" role="group" aria-label={t('eid.verifiedNames')}>
			<dl className="verified-names__list">
				<div>
					<dt>{t('register.firstName')}</dt>
					<dd>{firstName}</dd>
				</div>
				<div>
					<dt>{t('register.lastName')}</dt>
					<dd>{lastName}</dd>
				</div>
			</dl>
			<p className="field__help">
				<VerifiedPerson verified /> {note}
			</p>
		</div>
	)
}
