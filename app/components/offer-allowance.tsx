import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { allowanceReached, type OfferAllowance } from '~/domain/billing/allowance'
import { ButtonLink } from './button-link'

/**
 * A workshop's offers this month against its limit ("3 of 5 offers made this month"), with the
 * package that lifts it; nothing without a limit. At the limit it says so before any work is
 * done (issue 32) and shows the way to the subscription page.
 */
export function OfferAllowanceNotice({ allowance }: { allowance: OfferAllowance }) {
	const { t } = useTranslation('workshop')
	if (allowance.limit === null) return null
	if (allowanceReached(allowance)) return <OfferLimitReached allowance={allowance} />
	return (
		<p className="notice offer-allowance" data-allowance="open">
			{t('offer.allowanceCount', { count: allowance.used, limit: allowance.limit })}{' '}
			{allowance.upgradeTo ? <Link to="/subscription">{t('offer.upgrade', { name: allowance.upgradeTo })}</Link> : null}
		</p>
	)
}

/** In place of the offer form when the month's offers are all made: what happened and the upgrade path. */
export function OfferLimitReached({ allowance }: { allowance: OfferAllowance }) {
	const { t } = useTranslation('workshop')
	return (
		<div className="notice notice--warning offer-allowance" data-allowance="reached" role="status">
			<p>
				<strong>{t('offer.allowanceCount', { count: allowance.used, limit: allowance.limit })}</strong>
			</p>
			<p>{t('offer.limitReachedNotice', { limit: allowance.limit })}</p>
			<ButtonLink to="/subscription" kind="accent" size="small">
				{allowance.upgradeTo ? t('offer.upgradeTo', { name: allowance.upgradeTo }) : t('offer.seePackages')}
			</ButtonLink>
		</div>
	)
}
