import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/translation'
import { type OfferAllowance } from '~/domain/billing/subscription'

/** A workshop's offers this month against its limit, with the package that lifts it; nothing without a limit. */
export function OfferAllowanceNotice({ allowance }: { allowance: OfferAllowance }) {
	const { t } = useTranslation('workshop')
	if (allowance.limit === null) return null
	return (
		<p className="notice">
			{t('offer.allowance', { used: allowance.used, limit: allowance.limit })}{' '}
			{allowance.upgradeTo ? <Link to="/subscription">{t('offer.upgrade', { name: allowance.upgradeTo })}</Link> : null}
		</p>
	)
}
