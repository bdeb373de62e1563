/* An empty program: linked with one whole layer and the layers below it, it fails to
 * link when the layer calls into a layer above it (cmake/layers.cmake). */
int main(void)
{
	return 0;
}
