import { useTranslation } from '~/i18n/translation'
import { type BillDisputeItem } from '~/domain/service-flow/final-bill'
import { useLanguage } from '~/i18n/use-language'
import { formatDate, formatMoney } from '~/utils/format'
import { Fact } from './panel'

/** A final bill above the binding total (issue 19): what was agreed, what is billed, by how much more, and why. */
export function BillFacts({ bindingCents, billedCents, billReason }: { bindingCents: number; billedCents: number; billReason: string }) {
	const { t } = useTranslation('common')
	const language = useLanguage()
	return (
		<dl className="facts">
			<Fact label={t('bill.binding')}>{formatMoney(bindingCents, language)}</Fact>
			<Fact label={t('bill.billed')}>
				<strong>{formatMoney(billedCents, language)}</strong>
			</Fact>
			<Fact label={t('bill.difference')}>+{formatMoney(billedCents - bindingCents, language)}</Fact>
			<Fact className="facts__row--wide" valueClassName="prose-text" label={t('bill.workshopReason')}>
				{billReason}
			</Fact>
		</dl>
	)
}

/**
 * A disputed bill as both sides and the administrators see it: the bill, the customer's reason, and
 * how it was settled; while open, the two sides read that the administrators decide (`waitingNote`).
 */
export function BillDisputeFacts({ dispute, waitingNote = true }: { dispute: BillDisputeItem; waitingNote?: boolean }) {
	const { t } = useTranslation('common')
	const language = useLanguage()
	return (
		<>
			<BillFacts bindingCents={dispute.bindingCents} billedCents={dispute.billedCents} billReason={dispute.billReason} />
			<dl className="facts">
				<Fact className="facts__row--wide" valueClassName="prose-text" label={t('bill.customerReason', { date: formatDate(dispute.createdAt, language) })}>
					{dispute.reason}
				</Fact>
			</dl>
			{dispute.decision && dispute.resolvedAt ? (
				<div className="notice">
					<p>
						<strong>
							{t('bill.settledOn', {
								date: formatDate(dispute.resolvedAt, language),
								outcome: t(`bill.decision.${dispute.decision}`, { price: formatMoney(dispute.settledCents ?? 0, language) }),
							})}
						</strong>
					</p>
					{dispute.note ? <p className="prose-text">{t('bill.note', { note: dispute.note })}</p> : null}
				</div>
			) : waitingNote ? (
				<p className="notice notice--warning">{t('bill.disputeOpen')}</p>
			) : null}
		</>
	)
}
