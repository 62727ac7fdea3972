// Keeps AssetReference rows equal to the assets a notification's follow-ups name. Written by
// NotificationTx in the transaction that writes the notification, so a download check and the
// collector never see actions and references disagree.
import type { Tx } from "./database.ts";

export async function writeAssetReferences(tx: Tx, notificationId: string, before: readonly string[], after: readonly string[]): Promise<void> {
  const removed = before.filter((id) => !after.includes(id));
  const added = after.filter((id) => !before.includes(id));
  if (removed.length > 0) await tx.assetReference.deleteMany({ where: { notificationId, assetId: { in: removed } } });
  for (const assetId of added) await tx.assetReference.create({ data: { assetId, notificationId } });
}
