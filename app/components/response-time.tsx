import { useTranslation } from '~/i18n/translation'

/**
 * "Usually answers within 3 hours" (issue 15): a workshop's median time from request to offer,
 * rounded up to whole hours, then to whole days past a day. Nothing until it has five offers in 90 days.
 */
export function ResponseTime({ minutes }: { minutes: number | null }) {
	const { t } = useTranslation('common')
	if (minutes === null) return null
	const hours = Math.max(1, Math.ceil(minutes / 60))
	return <p className="response-time">{hours <= 24 ? t('responseTime.hours', { count: hours }) : t('responseTime.days', { count: Math.ceil(hours / 24) })}</p>
}
