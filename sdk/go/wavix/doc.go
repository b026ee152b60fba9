// Wavix account configuration (sub-accounts, numbers, call webhooks, SIP trunks, Sender IDs, 10DLC links, callbacks) as Pulumi resources, one per object or one for the whole account: the native provider of wavix-sync.
package wavix
