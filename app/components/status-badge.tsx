import { useTranslation } from '~/i18n/translation'

/** A request's or an offer's status as its label of spec §4, coloured by kind. */
export function StatusBadge({ kind, status }: { kind: 'request' | 'offer'; status: string }) {
	const { t } = useTranslation()
	return <span className={`badge badge--${kind}-${status}`}>{t(`status.${kind}.${status}`)}</span>
}
