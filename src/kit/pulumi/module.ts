/** Module of the dynamic resource types: `pulumi-nodejs:dynamic/wavix:<Type>` (never change it: state holds it). */
export const RESOURCE_MODULE = "wavix";
