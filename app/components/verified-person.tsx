import { useTranslation } from '~/i18n/translation'

/**
 * "Verified person": the account holder signed in with eID, so the name is theirs (customers, and
 * workshops' contact people), beside the name wherever others see it: offers, reviews, the request.
 */
export function VerifiedPerson({ verified, contact = false }: { verified: boolean | null | undefined; contact?: boolean }) {
	const { t } = useTranslation('common')
	if (!verified) return null
	return (
		<span className="verified-person" title={t(contact ? 'verifiedPerson.contactTitle' : 'verifiedPerson.title')} data-testid="verified-person">
			<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
				<path d="M8 1.5 13.5 4v4c0 3.2-2.3 5.7-5.5 6.5C4.8 13.7 2.5 11.2 2.5 8V4z" />
				<path d="m5.4 8.1 1.8 1.8 3.5-3.6" />
			</svg>
			{t(contact ? 'verifiedPerson.contact' : 'verifiedPerson.label')}
		</span>
	)
}
