export namespace backend {
	
	export interface Stats {
	    workspace: string;
	    backend: string;
	    documents: number;
	    content_nodes: number;
	    concept_nodes: number;
	    edges: number;
	    tokens: number;
	    embedder: string;
	    generation: number;
	}

}

