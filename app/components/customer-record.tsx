import { useTranslation } from '~/i18n/translation'

/** "Came to 4 of 5 bookings": a customer's record of booked times kept, shown to workshops from three bookings on (issue 33). */
export function CustomerRecordNote({ record }: { record: { due: number; came: number } | null }) {
	const { t } = useTranslation('booking')
	if (!record) return null
	return (
		<p className="item__meta customer-record" data-testid="customer-record">
			{t('reminders.record', { came: record.came, count: record.due })}
		</p>
	)
}
