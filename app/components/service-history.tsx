import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type HistoryEntry } from '~/domain/service-flow/passport'
import { distanceText, type OdometerUnit } from '~/domain/service-flow/vehicle-kinds'
import { useLanguage } from '~/i18n/use-language'
import { formatDate, formatMoney } from '~/utils/format'
import { encodeId } from '~/utils/public-id'
import { uploadUrl } from '~/uploads/upload-url'
import { Panel } from './panel'

/**
 * A vehicle's service history (issue 20): on its passport for the owner, and on a request for the
 * workshops it was shared with (decision 0104). Apart from the passport's forms, so that the
 * workshops' pages do not load them. Readings in the vehicle's odometer unit (decision 0122).
 */

/**
 * `shared`: as a workshop sees it on a request (sharedHistory: no prices, documents or links).
 * `actions`: what the owner may do with an entry (remove a record), beside it.
 */
export function ServiceHistory({
	entries,
	unit,
	shared = false,
	actions,
}: {
	entries: HistoryEntry[]
	unit: OdometerUnit
	shared?: boolean
	actions?: (entry: HistoryEntry) => React.ReactNode
}) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	if (!entries.length) return <p className="empty">{t(shared ? 'passport.sharedEmpty' : 'passport.noHistory')}</p>
	return (
		<ol className="item-list passport-history">
			{entries.map((entry) => {
				const headingId = `history-${entry.id}`
				return (
					<li key={entry.id} className="item passport-history__entry">
						<div className="item__main">
							<h3 id={headingId} className="item__title">
								{entry.requestId ? <Link to={`/service-details/${encodeId(entry.requestId)}`}>{entry.title}</Link> : entry.title}
							</h3>
							<p className="item__meta">
								{[
									formatDate(entry.on, language),
									entry.workshopName || null,
									entry.mileage !== null ? distanceText(t, entry.mileage, unit) : null,
									entry.source === 'record' ? t('passport.elsewhere') : null,
								]
									.filter(Boolean)
									.join(' · ')}
							</p>
							{entry.lines.length ? (
								<ul className="passport-history__lines">
									{entry.lines.map((line, index) => (
										<li key={index}>
											{line.description}
											{line.reference ? <span className="item__meta"> ({line.reference})</span> : null}
										</li>
									))}
								</ul>
							) : null}
							<Documents entry={entry} headingId={headingId} />
						</div>
						<div className="item__side">
							{entry.paidCents !== null ? <p className="item__highlight">{formatMoney(entry.paidCents, language)}</p> : null}
							{entry.quotedCents !== null && entry.paidCents !== null && entry.quotedCents !== entry.paidCents ? (
								<p className="item__meta">{t('passport.quoted', { price: formatMoney(entry.quotedCents, language) })}</p>
							) : null}
							{actions?.(entry)}
						</div>
					</li>
				)
			})}
		</ol>
	)
}

/** A vehicle's history on a request a workshop sees, when its owner shared it there (decision 0104); nothing otherwise. */
export function SharedHistoryPanel({ entries, unit }: { entries: HistoryEntry[] | null; unit: OdometerUnit }) {
	const { t } = useTranslation('workshop')
	if (!entries) return null
	return (
		<Panel id="shared-history" title={t('sharedHistory.title')}>
			<p className="item__meta">{t('sharedHistory.note')}</p>
			<ServiceHistory entries={entries} unit={unit} shared />
		</Panel>
	)
}

function Documents({ entry, headingId }: { entry: HistoryEntry; headingId: string }) {
	const { t } = useTranslation('customer')
	const documents = [
		entry.offerPdf ? { id: entry.offerPdf, label: t('passport.offerPdf') } : null,
		entry.invoicePdf ? { id: entry.invoicePdf, label: t('passport.invoicePdf') } : null,
		entry.documentPdf ? { id: entry.documentPdf, label: t('passport.documentPdf') } : null,
	].filter((document) => document !== null)
	if (!documents.length) return null
	return (
		<p className="passport-history__documents">
			{documents.map((document) => (
				<a key={document.id} href={uploadUrl(document.id)} download aria-describedby={headingId} className="button button--ghost button--small">
					{document.label}
				</a>
			))}
		</p>
	)
}
