// Wavix account configuration (sub-accounts, numbers, call webhooks, SIP trunks, Sender IDs, 10DLC links, callbacks) as Pulumi resources: the native provider of wavix-sync.
package wavix
